package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import segtool.analyzers.inputs.WalLinks;
import segtool.analyzers.recovery.DirectoryView;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.naming.SegmentFiles;

/**
 * Turns a judgement into a {@link RepairPlan}: the engine's operations in the server's order (sweep deletions,
 * staged indexes, then pass C per segment: fence, truncate log, install or truncate index), each with the byte
 * ranges it removes. Re-stats every file it plans for and refuses when a length differs from the judgement's.
 */
public final class Planner {
    static final String NEW_CONTENTS = "new";

    private Planner() {
    }

    /** The plan that makes an accepted partition's files what the server's pass C would make them. */
    public static RepairPlan repair(PartitionReport report) throws IOException {
        return repair(report, DirectoryView.AS_IS);
    }

    /**
     * {@link #repair(PartitionReport)} for a partition judged on the directory the WAL's open leaves ({@code opened},
     * METADATA 6.7): the judgement's operations are already those of the post-open directory, and an operation on a
     * name the open deletes, re-links or truncates is refused ({@link Unsafe}), since the file it would change now
     * is not the file recovery will read. Operations on every other name commute with the open.
     */
    public static RepairPlan repair(PartitionReport report, DirectoryView opened) throws IOException {
        if (report.outcome() != PartitionReport.Outcome.ACCEPTED) {
            throw new IllegalArgumentException("cannot plan a repair of a " + report.outcome().json() + " partition");
        }
        return plan("repair", report, report.operations(), opened);
    }

    /**
     * The plan of {@code rebuild-index}: per segment, a stale staging file deleted (it would be overwritten), the
     * rebuilt index staged, then installed.
     */
    public static RepairPlan rebuildIndex(PartitionReport report, List<SegmentReport> segments) throws IOException {
        return rebuildIndex(report, segments, DirectoryView.AS_IS);
    }

    /** {@link #rebuildIndex(PartitionReport, List)} with the WAL open's view, refused as {@link #repair} is. */
    public static RepairPlan rebuildIndex(PartitionReport report, List<SegmentReport> segments, DirectoryView opened)
            throws IOException {
        Path dir = report.partition().directory();
        List<PlannedOp> ops = new ArrayList<>();
        for (SegmentReport s : segments) {
            Path staging = SegmentFiles.indexStaging(dir, s.start());
            if (Files.exists(staging, LinkOption.NOFOLLOW_LINKS)) {
                ops.add(new PlannedOp.Delete(staging, "stale scratch file; rebuild-index writes this name"));
            }
            ops.add(new PlannedOp.StageIndex(staging, s.start(), s.rebuiltEntries()));
        }
        for (SegmentReport s : segments) {
            ops.add(new PlannedOp.InstallIndex(s.index(), s.start(), SegmentFiles.indexStaging(dir, s.start()),
                    s.rebuiltEntries(), size(s.index())));
        }
        return plan("rebuild-index", report, ops, opened);
    }

    /**
     * The plan of an accept-loss cut ({@link AcceptLoss}) for the refused {@code report}: the same operations and
     * checks, every removed range's reason prefixed with {@code why}.
     */
    static RepairPlan acceptLoss(PartitionReport report, List<PlannedOp> ops, String why) throws IOException {
        RepairPlan p = plan(AcceptLoss.COMMAND, report, ops, DirectoryView.AS_IS);
        List<RepairPlan.Leaving> leaving = new ArrayList<>();
        for (RepairPlan.Leaving l : p.leaving()) {
            leaving.add(new RepairPlan.Leaving(l.op(), l.file(), l.offset(), l.length(), l.originalLength(),
                    why + ": " + l.reason().replaceFirst("^torn tail: ", "")));
        }
        return new RepairPlan(p.command(), p.partition(), p.durable(), p.ops(), List.copyOf(leaving), p.contents(),
                p.engineOps(), p.report());
    }

    /** A plan segtool will not carry out because it is not safe for these files; reported as a refusal. */
    public static final class Unsafe extends IOException {
        Unsafe(String why) {
            super(why);
        }
    }

    /**
     * Refuses an operation on {@code file} when the WAL's open changes that name first: one line naming the file,
     * what the open does to it, and why segtool does not touch it.
     */
    private static void notChangedByTheOpen(DirectoryView opened, Path file, String op) throws Unsafe {
        String n = file.getFileName().toString();
        String what = opened.removed().contains(n) ? "deletes it"
                : opened.readAs().containsKey(n) ? "replaces it by the inode it retains as " + opened.readAs().get(n)
                : opened.limits().containsKey(n) ? "truncates its inode to " + opened.limits().get(n) + " bytes"
                : null;
        if (what != null) {
            throw new Unsafe(file + ": the server's WAL open " + what + " before segment recovery runs (METADATA "
                    + "6.7), so the " + op + " planned for the post-open directory cannot be done to the file there "
                    + "now; segtool changes nothing here: let the server's WAL open run first (start it once), then "
                    + "judge and repair again");
        }
    }

    private static RepairPlan plan(String command, PartitionReport report, List<PlannedOp> engineOps,
                                   DirectoryView opened) throws IOException {
        Path dir = report.partition().directory();
        if (!opened.asIs()) {
            for (PlannedOp op : engineOps) {
                notChangedByTheOpen(opened, op.path(), op.kind());
                if (op instanceof PlannedOp.Fence f) {
                    notChangedByTheOpen(opened, SegmentFiles.index(dir, f.segmentStart()), op.kind());
                } else if (op instanceof PlannedOp.InstallIndex i) {
                    notChangedByTheOpen(opened, i.staging(), op.kind());
                }
            }
        }
        List<RepairOp> ops = new ArrayList<>();
        List<RepairPlan.Leaving> leaving = new ArrayList<>();
        Map<String, byte[]> contents = new LinkedHashMap<>();
        for (PlannedOp op : engineOps) {
            int seq = ops.size();
            Confinement.regularOrAbsent(op.path());
            if (op instanceof PlannedOp.Fence f) {
                Confinement.regularOrAbsent(SegmentFiles.index(dir, f.segmentStart()));
            } else if (op instanceof PlannedOp.InstallIndex i) {
                Confinement.regularOrAbsent(i.staging());
            }
            String file = name(dir, op.path());
            if (op instanceof PlannedOp.Delete) {
                PlannedOp.Delete d = (PlannedOp.Delete) op;
                if (!Files.isRegularFile(d.path(), LinkOption.NOFOLLOW_LINKS)) {
                    throw new IOException(d.path() + ": not a regular file; segtool deletes only regular files");
                }
                long len = Files.size(d.path());
                ops.add(new RepairOp.Delete(seq, file, d.reason(), len));
                leave(leaving, seq, file, 0, len, len, "deleted by the sweep: " + d.reason());
            } else if (op instanceof PlannedOp.StageIndex) {
                PlannedOp.StageIndex s = (PlannedOp.StageIndex) op;
                byte[] bytes = IndexFile.encode(s.entries());
                String content = NEW_CONTENTS + "/" + SegmentFiles.stem(s.segmentStart()) + SegmentFiles.INDEX;
                contents.put(content, bytes);
                ops.add(new RepairOp.StageIndex(seq, file, content, bytes.length, Hashing.hex(hash(bytes))));
            } else if (op instanceof PlannedOp.Fence) {
                PlannedOp.Fence f = (PlannedOp.Fence) op;
                if (f.fenceDirectory() == null) {
                    throw new IOException(dir + ": all " + 1000 + " fence directory names are taken");
                }
                Path index = SegmentFiles.index(dir, f.segmentStart());
                expect(f.path(), f.logBytes());
                expect(index, f.indexBytes());
                boolean logExisted = Files.exists(f.path(), LinkOption.NOFOLLOW_LINKS);
                boolean indexExisted = Files.exists(index, LinkOption.NOFOLLOW_LINKS);
                String linked = logExisted ? WalLinks.fenceRefusal(f.path()) : null;
                if (linked != null) {
                    throw new Unsafe(linked);
                }
                String fence = f.fenceDirectory().getFileName().toString();
                ops.add(new RepairOp.Fence(seq, file, name(dir, index), fence, logExisted, indexExisted,
                        f.logBytes(), f.indexBytes()));
                leave(leaving, seq, file, 0, f.logBytes(), f.logBytes(), "recovered empty: fenced into " + fence);
                leave(leaving, seq, name(dir, index), 0, f.indexBytes(), f.indexBytes(),
                        "recovered empty: fenced into " + fence);
            } else if (op instanceof PlannedOp.TruncateLog) {
                PlannedOp.TruncateLog t = (PlannedOp.TruncateLog) op;
                expect(t.path(), t.from());
                String linked = WalLinks.inPlaceTruncation(t.path());
                if (linked != null) {
                    throw new Unsafe(linked);
                }
                ops.add(new RepairOp.TruncateLog(seq, file, t.from(), t.to()));
                leave(leaving, seq, file, t.to(), t.from() - t.to(), t.from(),
                        "torn tail: log truncated from " + t.from() + " to " + t.to() + " bytes");
            } else if (op instanceof PlannedOp.InstallIndex) {
                PlannedOp.InstallIndex i = (PlannedOp.InstallIndex) op;
                expect(i.path(), i.from());
                byte[] bytes = IndexFile.encode(i.entries());
                String content = NEW_CONTENTS + "/" + SegmentFiles.stem(i.segmentStart()) + SegmentFiles.INDEX;
                contents.putIfAbsent(content, bytes);
                boolean existed = Files.exists(i.path(), LinkOption.NOFOLLOW_LINKS);
                ops.add(new RepairOp.InstallIndex(seq, file, name(dir, i.staging()), i.from(), existed, content,
                        bytes.length, Hashing.hex(hash(bytes))));
                leave(leaving, seq, file, 0, i.from(), i.from(), "index replaced by one rebuilt from the log ("
                        + i.entries().size() + " entries of " + IndexEntry.LENGTH + " bytes)");
            } else if (op instanceof PlannedOp.TruncateIndex) {
                PlannedOp.TruncateIndex t = (PlannedOp.TruncateIndex) op;
                expect(t.path(), t.from());
                ops.add(new RepairOp.TruncateIndex(seq, file, t.from(), t.to()));
                leave(leaving, seq, file, t.to(), t.from() - t.to(), t.from(),
                        t.to() % IndexEntry.LENGTH == 0 && t.from() % IndexEntry.LENGTH != 0
                                ? "index floored to whole entries (" + t.from() + " -> " + t.to() + " bytes)"
                                : "index truncated from " + t.from() + " to " + t.to() + " bytes");
            } else {
                throw new IllegalStateException("unknown planned operation " + op.kind());
            }
        }
        return new RepairPlan(command, report.partition(), report.durable(), List.copyOf(ops), List.copyOf(leaving),
                contents, List.copyOf(engineOps), report);
    }

    /** Splits a removed range into quarantine entries of at most {@link Hashing#MAX_RANGE} bytes. */
    private static void leave(List<RepairPlan.Leaving> out, int op, String file, long offset, long length,
                              long originalLength, String reason) {
        for (long at = offset; at < offset + length; at += Hashing.MAX_RANGE) {
            long n = Math.min(Hashing.MAX_RANGE, offset + length - at);
            out.add(new RepairPlan.Leaving(op, file, at, n, originalLength, reason));
        }
    }

    private static void expect(Path file, long length) throws IOException {
        long now = size(file);
        if (now != length) {
            throw new IOException(file + ": is " + now + " bytes but was " + length + " when judged; the partition "
                    + "is changing under segtool (is a server running?)");
        }
    }

    static long size(Path file) throws IOException {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? Files.size(file) : 0;
    }

    private static String name(Path dir, Path file) throws IOException {
        Path parent = file.toAbsolutePath().normalize().getParent();
        if (!parent.equals(dir.toAbsolutePath().normalize())) {
            throw new IOException(file + ": not inside the partition directory " + dir);
        }
        String name = file.getFileName().toString();
        if (!SegmentFiles.readsAsText(file)) {
            // the name's bytes are not valid in the JVM's file-name encoding: as text it names another file, so a
            // plan (journaled as text) would delete, rename or copy a file that is not there and call it done. The
            // sweep skips such entries (RECOVERY 3), so no plan should name one: this is the last guard
            throw new IOException(file.getParent().resolve(name.replace('\ufffd', '?')) + ": this "
                    + "file's name is not valid UTF-8, and segtool cannot name it to move it into a quarantine; "
                    + "move it out of the partition directory by hand (ls -b shows its bytes), then run again"
                    + ("UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding")) ? "" : " (or run under a "
                    + "UTF-8 locale: this JVM reads file names as " + System.getProperty("sun.jnu.encoding") + ")"));
        }
        return name;
    }

    private static long hash(byte[] bytes) {
        return segtool.formats.hash.Xxh3.hash(bytes);
    }
}
