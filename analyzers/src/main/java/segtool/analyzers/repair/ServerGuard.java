package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * Looks for a server (or anything else) using the data before segtool changes it. The Iggy server keeps no pid or
 * lock file in its data directory (its {@code system.path} holds {@code state/}, {@code runtime/} and
 * {@code streams/}), but while it runs it holds segment logs and indexes, and its state log, open. So, over
 * {@code /proc/<pid>} of every other process:
 * <ul>
 *   <li>{@code fd/*}: an open file whose path lies under the scope, or whose device and inode are those of a file
 *       under the scope (a server in a container sees the data under another path, but the same inode);</li>
 *   <li>{@code maps}: a file under the scope mapped into memory;</li>
 *   <li>{@code comm}: a process named {@code iggy*} whose files cannot be inspected (another user) counts as busy;
 *       one that holds nothing under the scope is only reported.</li>
 * </ul>
 * In the data directory (and its {@code runtime/}) a {@code *.pid} file naming a live process counts as busy, for
 * deployments that wrap the server in a service manager that writes one. The scope is the data directory when the
 * partition sits at {@code <data>/streams/<s>/topics/<t>/partitions/<p>}, else the partition directory.
 */
public final class ServerGuard {
    /** A process using a file under the scope. */
    public record Holder(long pid, String command, String file, String how) {
        @Override
        public String toString() {
            return "pid " + pid + " (" + command + ") " + how + " " + file;
        }
    }

    /** What the check found. {@code busy()} means segtool must not change anything without {@code --force}. */
    public record Report(Path scope, boolean procAvailable, List<Holder> holders, List<String> pidFiles,
                         int uninspectable, List<String> notes) {
        public boolean busy() {
            return !procAvailable || !holders.isEmpty() || !pidFiles.isEmpty();
        }

        /** A scope nothing uses, for callers that have checked by other means. */
        public static Report idle(Path scope) {
            return new Report(scope, true, List.of(), List.of(), 0, List.of());
        }

        public List<String> reasons() {
            List<String> out = new ArrayList<>();
            if (!procAvailable) {
                out.add("cannot look for running servers: /proc is not available on this system");
            }
            holders.forEach(h -> out.add(h.toString()));
            out.addAll(pidFiles);
            return out;
        }
    }

    private final Path proc;
    private final long self;

    public ServerGuard() {
        this(Path.of("/proc"), ProcessHandle.current().pid());
    }

    ServerGuard(Path proc, long self) {
        this.proc = proc;
        this.self = self;
    }

    /** The data directory of a partition at the server's layout, else the partition directory itself. */
    public static Path scopeOf(PartitionPath partition) {
        Path abs = partition.directory().toAbsolutePath().normalize();
        if (partition.isCanonical() && abs.getNameCount() > 6) {
            return abs.getParent().getParent().getParent().getParent().getParent().getParent();
        }
        return abs;
    }

    public Report check(Path scope) {
        Path abs = scope.toAbsolutePath().normalize();
        Path real = realPath(abs);
        List<String> notes = new ArrayList<>();
        List<String> pidFiles = pidFiles(real);
        if (!Files.isDirectory(proc)) {
            return new Report(abs, false, List.of(), pidFiles, 0, notes);
        }
        Object scopeDev = attribute(real, "unix:dev");
        Set<String> inodes = null;
        List<Holder> holders = new ArrayList<>();
        int uninspectable = 0;
        List<Path> pids = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(proc)) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                if (!n.isEmpty() && n.chars().allMatch(Character::isDigit) && Long.parseLong(n) != self) {
                    pids.add(p);
                }
            }
        } catch (IOException e) {
            return new Report(abs, false, List.of(), pidFiles, 0, List.of("cannot list " + proc + ": " + e));
        }
        for (Path p : pids) {
            long pid = Long.parseLong(p.getFileName().toString());
            String comm = comm(p);
            boolean denied = false;
            boolean holds = false;
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(p.resolve("fd"))) {
                for (Path fd : fds) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (IOException gone) {
                        continue;
                    }
                    String path = target.endsWith(" (deleted)")
                            ? target.substring(0, target.length() - " (deleted)".length()) : target;
                    if (under(path, real) || under(path, abs)) {
                        holders.add(new Holder(pid, comm, path, "has open"));
                        holds = true;
                        continue;
                    }
                    if (!target.startsWith("/") || scopeDev == null) {
                        continue;
                    }
                    Object dev = attribute(fd, "unix:dev");
                    if (scopeDev.equals(dev)) {
                        if (inodes == null) {
                            inodes = inodes(real);
                        }
                        Object ino = attribute(fd, "unix:ino");
                        if (ino != null && inodes.contains(dev + ":" + ino)) {
                            holders.add(new Holder(pid, comm, path, "has open (same inode as a file under "
                                    + abs + ")"));
                            holds = true;
                        }
                    }
                }
            } catch (AccessDeniedException e) {
                denied = true;
            } catch (IOException e) {
                continue;
            }
            if (!denied) {
                try (Stream<String> lines = Files.lines(p.resolve("maps"), StandardCharsets.UTF_8)) {
                    String hit = lines.map(l -> l.indexOf('/') >= 0 ? l.substring(l.indexOf('/')) : "")
                            .filter(f -> under(f, real) || under(f, abs)).findFirst().orElse(null);
                    if (hit != null && !holds) {
                        holders.add(new Holder(pid, comm, hit, "has mapped"));
                        holds = true;
                    }
                } catch (IOException | java.io.UncheckedIOException ignored) {
                    // exited, or not ours to read
                }
            }
            boolean iggy = comm.startsWith("iggy");
            if (denied) {
                uninspectable++;
                if (iggy) {
                    holders.add(new Holder(pid, comm, "(unknown)", "runs as another user; cannot see the files it"
                            + " has open:"));
                }
            } else if (iggy && !holds) {
                notes.add("pid " + pid + " (" + comm + ") runs on this host but holds nothing under " + abs);
            }
        }
        if (uninspectable > 0) {
            notes.add(uninspectable + " process(es) of other users could not be inspected; run segtool as the "
                    + "server's user or as root to be sure none of them uses " + abs);
        }
        return new Report(abs, true, holders, pidFiles, uninspectable, notes);
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    private static boolean under(String path, Path scope) {
        String s = scope.toString();
        return path.equals(s) || path.startsWith(s.endsWith("/") ? s : s + "/");
    }

    private List<String> pidFiles(Path scope) {
        List<String> out = new ArrayList<>();
        for (Path dir : List.of(scope, scope.resolve("runtime"))) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.endingIn(".pid"))) {
                for (Path f : s) {
                    String text = new String(Files.readAllBytes(f), StandardCharsets.US_ASCII).trim();
                    String first = text.split("\\s+")[0];
                    if (!first.isEmpty() && first.chars().allMatch(Character::isDigit) && first.length() < 10
                            && Long.parseLong(first) != self && Files.isDirectory(proc.resolve(first))) {
                        out.add(f + " names process " + first + ", which is running");
                    }
                }
            } catch (IOException ignored) {
                // unreadable pid files prove nothing either way
            }
        }
        return out;
    }

    /** {@code dev:ino} of every file under {@code scope}. */
    private static Set<String> inodes(Path scope) {
        Set<String> out = new HashSet<>();
        try (Stream<Path> walk = Files.walk(scope)) {
            walk.forEach(p -> {
                Object dev = attribute(p, "unix:dev");
                Object ino = attribute(p, "unix:ino");
                if (dev != null && ino != null) {
                    out.add(dev + ":" + ino);
                }
            });
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // a partial set only weakens the inode check; the path check still stands
        }
        return out;
    }

    private static Object attribute(Path p, String name) {
        try {
            return Files.getAttribute(p, name);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    private static String comm(Path pidDir) {
        try {
            return new String(Files.readAllBytes(pidDir.resolve("comm")), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "?";
        }
    }
}
