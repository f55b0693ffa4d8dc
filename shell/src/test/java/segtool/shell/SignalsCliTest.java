package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;

/**
 * SIGINT and SIGTERM sent to a real segtool process ({@link Main}, a child JVM) while it writes its side output: it
 * stops, removes its own temporary file or directory, prints one line saying what was interrupted and what it left,
 * and exits 130 (SIGINT) or 143 (SIGTERM). Before, SIGINT ended salvage with 130 and no line, leaving
 * {@code .OUT.segtool-salvage-tmp.<pid>/} beside OUT, and SIGTERM gave the JVM's undocumented 143.
 *
 * <p>The signal is sent once the command is seen writing (its temporary output exists). A run that finished before
 * the signal reached it (the input was too small for this machine) is tried again on an input twice as large.
 */
class SignalsCliTest {
    @TempDir
    static Path root;

    /** The partition of the first try; later tries add segments of the same size. */
    static Path partition;
    static int segments;

    /** 4 MiB segments of 1-message batches with 4 KiB payloads (the salvage reads, copies and indexes each one). */
    static final PartitionWriter.Config CONFIG = PartitionWriter.Config.of(1).segmentSize(4L << 20)
            .messagesRequiredToSave(1).trackLayout(false);

    @BeforeAll
    static void write() {
        partition = Partitions.partitionDir(root, "node", 1);
        grow(8);
    }

    /**
     * The most segments a retry may grow the partition to (256 MiB). Every test shares the partition and each try
     * the signal came too late for doubled it: on a loaded machine, where a restore kept finishing first, the tries
     * had grown it past 13 GB and the salvage archives of its copies to 21 GB, and filled the disk.
     */
    static final int MAX_SEGMENTS = 64;

    /** Makes the partition {@code n} segments long (32 MiB for the first 8), each segment 1024 batches. */
    static void grow(int n) {
        if (n <= segments) {
            return;
        }
        if (n > MAX_SEGMENTS) {
            fail("the command finished before the signal reached it on every try, the last on " + segments
                    + " segments of 4 MiB; the partition is not grown further");
        }
        // the writer starts a partition afresh; a larger one is written whole
        deleteTree(partition);
        PartitionWriter.fill(partition, CONFIG, n * 1000, 1, 4096, 11);
        segments = n;
    }

    @Test
    void salvage_sigint_and_sigterm_removeTheTemporaryDirectory_sayOneLine() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path out = root.resolve("salvaged-" + signal);
            String tmpPrefix = "." + out.getFileName() + ".segtool-salvage-tmp.";
            Run r = interrupt(signal, p -> p.getFileName().toString().startsWith(tmpPrefix), out.getParent(),
                    () -> deleteTree(out), "salvage", partition, "-o", out, "--format", "ndjson");
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            assertEquals("segtool: salvage interrupted: " + out + " was not created; nothing else changed\n", r.err,
                    r.toString());
            assertFalse(Files.exists(out), out + " exists");
            assertEquals(List.of(), leftovers(out.getParent(), tmpPrefix), "temporary directories left");
        }
    }

    @Test
    void pack_sigint_and_sigterm_removeTheTemporaryFile_leaveAnExistingOutAlone() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path dir = Files.createDirectories(root.resolve("pack-" + signal));
            Path out = dir.resolve("dump.tar");
            String tmpPrefix = ".dump.tar.";
            Run r = interrupt(signal, p -> p.getFileName().toString().startsWith(tmpPrefix), dir,
                    () -> write(out, "the operator's earlier dump"), "pack", root.resolve("node"), "-o", out);
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            assertEquals("segtool: pack interrupted: " + out + " was not written (a file that was there is "
                    + "unchanged); nothing else changed\n", r.err, r.toString());
            assertEquals("the operator's earlier dump", Files.readString(out));
            assertEquals(List.of(), leftovers(dir, tmpPrefix), "temporary files left");
        }
    }

    /**
     * {@code repair --accept-loss --apply}: the salvage archive is written, then the cut's quarantine is filled. The
     * signal comes once the quarantine exists: the run stopped before its commit point (the preparation removed,
     * nothing changed) or after it (the quarantine holds the plan, part done). The line says which, as the disk
     * shows, and the same command run again finishes the repair (the apply's protocol is not changed).
     */
    @Test
    void repairAcceptLossApply_sigint_and_sigterm_sayWhereItStopped_andRunningAgainFinishes() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path dir = Partitions.partitionDir(root, "repair-" + signal, 1);
            Path archive = root.resolve("archive-" + signal);
            List<String> before = new ArrayList<>();
            Object[] args = {"repair", dir, "--accept-loss", "--apply", "--salvage-to", archive,
                "--durability=replicated", "-q"};
            Run r = interrupt(signal, p -> p.getFileName().toString().startsWith("1.segtool-quarantine."),
                    dir.getParent(), () -> {
                        deleteTree(archive);
                        before.clear();
                        before.addAll(listing(damaged("repair-" + signal)));
                    }, args);
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            Path real = dir.toRealPath();
            List<Path> quarantines = leftovers(real.getParent(), "1.segtool-quarantine.");
            String state;
            if (quarantines.isEmpty()) {
                state = "nothing changed";
                assertEquals(before, listing(dir), "the partition's files");
            } else {
                assertEquals(1, quarantines.size(), quarantines.toString());
                assertTrue(segtool.analyzers.repair.Quarantine.open(quarantines.get(0)).unfinished());
                state = quarantines.get(0) + " holds every byte removed so far: run `segtool repair --apply` again "
                        + "to finish the plan, or `segtool restore --apply` on it to undo it";
            }
            assertEquals("segtool: repair interrupted: " + real + ": " + state + "; the salvage archive " + archive
                    + " is complete: run again with --salvage-to " + archive + " to reuse it\n", r.err, r.toString());
            assertEquals(List.of(), leftovers(root, "." + archive.getFileName() + ".segtool-salvage-tmp."));
            Cli.Result again = Cli.run(args);
            assertEquals(0, again.exit(), again.toString());
            assertEquals(0, Cli.run("scan", dir, "--durability=replicated").exit());
            deleteTree(root.resolve("repair-" + signal));
            deleteTree(archive);
        }
    }

    /**
     * As above, with the signal sent after the commit point (the quarantine's manifest is written) while the cut's
     * operations run, one per segment moved aside: the line names the quarantine, whose plan the run again
     * finishes.
     */
    @Test
    void repairAcceptLossApply_interruptedAfterItsCommitPoint_namesTheQuarantine_andRunningAgainFinishes()
            throws Exception {
        growSmall(160);
        for (String signal : new String[] {"INT", "TERM"}) {
            Path dir = Partitions.partitionDir(root, "committed-" + signal, 1);
            Path archive = root.resolve("archive-committed-" + signal);
            Object[] args = {"repair", dir, "--accept-loss", "--apply", "--salvage-to", archive,
                "--durability=replicated", "-q"};
            Run r = interrupt(signal, p -> p.getFileName().toString().startsWith("1.segtool-quarantine.")
                    && Files.exists(p.resolve(segtool.analyzers.repair.Quarantine.MANIFEST)), dir.getParent(), () -> {
                        deleteTree(archive);
                        for (Path q : leftoversUnchecked(dir.getParent(), "1.segtool-quarantine.")) {
                            deleteTree(q);
                        }
                        damaged(small, "committed-" + signal);
                    }, () -> growSmall(smallSegments * 2), args);
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            Path real = dir.toRealPath();
            List<Path> quarantines = leftovers(real.getParent(), "1.segtool-quarantine.");
            assertEquals(1, quarantines.size(), quarantines.toString());
            Path q = quarantines.get(0);
            String state = segtool.analyzers.repair.Quarantine.open(q).unfinished()
                    ? q + " holds every byte removed so far: run `segtool repair --apply` again to finish the plan, "
                    + "or `segtool restore --apply` on it to undo it"
                    : "repaired, the removed bytes in " + q.getFileName() + "; not judged again after it: run "
                    + "`segtool scan`";
            assertEquals("segtool: repair interrupted: " + real + ": " + state + "; the salvage archive " + archive
                    + " is complete: run again with --salvage-to " + archive + " to reuse it\n", r.err, r.toString());
            Cli.Result again = Cli.run(args);
            assertEquals(0, again.exit(), again.toString());
            assertEquals(0, Cli.run("scan", dir, "--durability=replicated").exit());
            assertEquals(List.of(q), leftovers(real.getParent(), "1.segtool-quarantine."), "the one quarantine");
            assertFalse(segtool.analyzers.repair.Quarantine.open(q).unfinished());
            deleteTree(root.resolve("committed-" + signal));
            deleteTree(archive);
        }
    }

    /**
     * {@code restore --apply} of the accept-loss cut's quarantine, the signal sent once it writes a staging file: the line says the restore stopped part way, and restore run again finishes it, giving back the files as
     * they were before the repair.
     */
    @Test
    void restoreApply_sigint_and_sigterm_stopPartWay_andRunningAgainFinishes() throws Exception {
        // the partition of many small segments: the restore writes one staging file per segment it puts back, so
        // the window in which one exists is long however loaded the machine is
        growSmall(160);
        for (String signal : new String[] {"INT", "TERM"}) {
            Path dir = Partitions.partitionDir(root, "restore-" + signal, 1);
            Path archive = root.resolve("archive-restore-" + signal);
            List<String> before = new ArrayList<>();
            Path[] quarantine = new Path[1];
            // looked for by name (a stat), not by listing the directory: the restore's in-use check would see the
            // listing's open directory and refuse
            Run r = interrupt(signal, (java.util.function.BooleanSupplier) () -> before.stream().anyMatch(f -> Files
                    .exists(dir.resolve(f.substring(0, f.indexOf(' ')) + ".segtool-restore.staging"))), () -> {
                        deleteTree(archive);
                        for (Path q : leftoversUnchecked(dir.getParent(), "1.segtool-quarantine.")) {
                            deleteTree(q);
                        }
                        before.clear();
                        before.addAll(listing(damaged(small, "restore-" + signal)));
                        Cli.Result cut = Cli.run("repair", dir, "--accept-loss", "--apply", "--salvage-to", archive,
                                "--durability=replicated", "-q");
                        assertEquals(0, cut.exit(), cut.toString());
                        List<Path> qs = leftoversUnchecked(dir.getParent(), "1.segtool-quarantine.");
                        assertEquals(1, qs.size(), qs.toString());
                        quarantine[0] = qs.get(0);
                    }, () -> growSmall(smallSegments * 2), "restore", new LazyPath(quarantine), "--apply", "-q");
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            Path q = quarantine[0].toRealPath();
            assertEquals("segtool: restore interrupted: " + q + ": the restore stopped part way; the quarantine still "
                    + "holds every byte: run `segtool restore --apply` on it again to finish\n", r.err, r.toString());
            Cli.Result again = Cli.run("restore", q, "--apply", "-q");
            assertEquals(0, again.exit(), again.toString());
            assertEquals(before, listing(dir), "the partition's files as before the repair");
            assertEquals(2, Cli.run("scan", dir, "--durability=replicated").exit(), "refused again, as before");
            deleteTree(root.resolve("restore-" + signal));
            deleteTree(archive);
        }
    }

    /**
     * The interactive shell ({@code segtool shell}, a dumb terminal on pipes) running salvage: Ctrl-C (SIGINT)
     * cancels the command, which says what it left, and the shell goes on (exit at the end is 0); SIGTERM stops the
     * command the same way and ends the shell with 143. Either way the temporary directory is gone and OUT was not
     * created.
     */
    @Test
    void shell_sigintCancelsTheCommandAndGoesOn_sigtermStopsItAndEndsTheShell() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path out = root.resolve("shell-salvaged-" + signal);
            String tmpPrefix = "." + out.getFileName() + ".segtool-salvage-tmp.";
            String said = "segtool: salvage interrupted: " + out + " was not created; nothing else changed";
            String[] text = null;
            for (int attempt = 0; attempt < 4 && text == null; attempt++) {
                text = shell(signal, out, tmpPrefix, said);
                if (text == null) {
                    deleteTree(out);
                    grow(segments * 2);
                }
            }
            assertTrue(text != null, "salvage in the shell always finished before the signal reached it");
            assertEquals(signal.equals("INT") ? "0" : "143", text[0], text[1]);
            assertEquals(1, text[1].split(java.util.regex.Pattern.quote(said), -1).length - 1, text[1]);
            assertFalse(Files.exists(out), out + " exists");
            assertEquals(List.of(), leftovers(out.getParent(), tmpPrefix), "temporary directories left");
        }
    }

    /**
     * {@code repair --apply} on a terminal asks before it changes anything; a console read does not answer to an
     * interrupt, so the signal used to wait for Enter. Now it ends the question: one line, 130 or 143, nothing
     * changed. The terminal is a pseudo-terminal from script(1); skipped where there is none.
     */
    @Test
    void repairApply_signalAtItsQuestion_endsIt_nothingChanged() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")),
                "no script(1) for a pseudo-terminal");
        for (String signal : new String[] {"INT", "TERM"}) {
            Partitions torn = Partitions.tornTail(root.resolve("ask-" + signal));
            List<String> before = listing(torn.dir);
            StringBuilder line = new StringBuilder();
            for (String a : List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx256m", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "repair", torn.dir.toString(),
                    "--apply", "--durability=replicated", "-q")) {
                line.append(" '").append(a.replace("'", "'\\''")).append('\'');
            }
            Path text = Files.createTempFile(root, "ask", ".out");
            Process p = new ProcessBuilder("/usr/bin/script", "-qec", line.toString().trim(), "/dev/null")
                    .redirectOutput(text.toFile()).redirectErrorStream(true).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (!Files.readString(text, StandardCharsets.UTF_8).contains("[y/N]") && p.isAlive()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                String asked = Files.readString(text, StandardCharsets.UTF_8);
                org.junit.jupiter.api.Assumptions.assumeTrue(asked.contains("[y/N]"), "no question on this "
                        + "pseudo-terminal: " + asked);
                ProcessHandle java = p.descendants().filter(h -> h.info().command().orElse("").endsWith("java"))
                        .findFirst().orElseThrow();
                Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(java.pid())).inheritIO()
                        .start();
                assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal);
                assertTrue(p.waitFor(120, TimeUnit.SECONDS), "repair did not end at the signal");
                String t = Files.readString(text, StandardCharsets.UTF_8).replace("\r\n", "\n");
                assertEquals(signal.equals("INT") ? 130 : 143, p.exitValue(), t);
                assertTrue(t.endsWith("[y/N] \nsegtool: repair interrupted: " + torn.dir.toRealPath()
                        + ": nothing changed\n"), t);
                assertEquals(before, listing(torn.dir), "the partition's files");
                assertEquals(List.of(), leftovers(torn.dir.getParent(), "1.segtool-quarantine."));
            } finally {
                p.destroyForcibly();
                Files.deleteIfExists(text);
            }
        }
    }

    /** SIGTERM to a shell waiting at its prompt ends it with one line and 143. */
    @Test
    void shell_sigtermAtThePrompt_endsItWithOneLine() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "shell"));
        Path text = Files.createTempFile(root, "shell", ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(text.toFile()).redirectErrorStream(true);
        pb.environment().put("SEGTOOL_HISTORY", root.resolve("history-prompt").toString());
        pb.environment().put("TERM", "dumb");
        Process p = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(text, StandardCharsets.UTF_8).contains("segtool> ") && p.isAlive()
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Process kill = new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).inheritIO().start();
            assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -TERM");
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the shell did not end within 120 s");
            String t = Files.readString(text, StandardCharsets.UTF_8);
            assertEquals(143, p.exitValue(), t);
            assertTrue(t.endsWith("segtool> segtool: shell interrupted: nothing changed\n"), t);
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(text);
        }
    }

    /**
     * One shell run: salvage typed, the signal sent once it writes, then (after SIGINT, once the command has said
     * it stopped) exit typed. The exit code and the terminal's text, or null when salvage finished first.
     */
    private static String[] shell(String signal, Path out, String tmpPrefix, String said) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "shell"));
        Path text = Files.createTempFile(root, "shell", ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(text.toFile()).redirectErrorStream(true);
        pb.environment().put("SEGTOOL_HISTORY", root.resolve("history-" + signal).toString());
        pb.environment().put("TERM", "dumb");
        Process p = pb.start();
        try (java.io.Writer typing = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            typing.write("salvage " + partition + " -o " + out + "\n");
            typing.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            boolean seen = false;
            while (!seen && p.isAlive() && System.nanoTime() < deadline) {
                seen = !leftovers(out.getParent(), tmpPrefix).isEmpty();
                if (!seen) {
                    if (Files.exists(out)) {
                        break;
                    }
                    Thread.sleep(2);
                }
            }
            if (!seen) {
                assertTrue(Files.exists(out) || !p.isAlive(), "salvage did not start writing within 120 s");
                typing.write("exit\n");
                typing.flush();
                assertTrue(p.waitFor(120, TimeUnit.SECONDS));
                return null;
            }
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start();
            assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal);
            if (signal.equals("INT")) {
                // the shell goes on: wait for the command to end (its line, or its summary and the next prompt)
                while (System.nanoTime() < deadline) {
                    String t = Files.readString(text, StandardCharsets.UTF_8);
                    if (t.contains(said) || t.split("segtool> ", -1).length > 2) {
                        break;
                    }
                    Thread.sleep(10);
                }
                typing.write("exit\n");
                typing.flush();
            }
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the shell did not end within 120 s");
            String t = Files.readString(text, StandardCharsets.UTF_8);
            if (!t.contains(said) && Files.exists(out)) {
                return null;
            }
            return new String[] {String.valueOf(p.exitValue()), t};
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(text);
        }
    }

    /** An argument whose path is known only once the scene is set. */
    record LazyPath(Path[] holder) {
        @Override
        public String toString() {
            return holder[0].toString();
        }
    }

    /** A partition of many small segments (7 batches each), for a cut with one operation per segment. */
    static Path small;
    static int smallSegments;

    static void growSmall(int n) {
        if (n <= smallSegments) {
            return;
        }
        if (n > 1280) {
            fail("the command finished before the signal reached it on every try, the last on " + smallSegments
                    + " segments of 32 KiB; the partition is not grown further");
        }
        small = Partitions.partitionDir(root, "small", 1);
        deleteTree(small);
        PartitionWriter.fill(small, PartitionWriter.Config.of(1).segmentSize(32 * 1024).messagesRequiredToSave(1)
                .trackLayout(false), n * 7, 1, 4096, 13);
        smallSegments = n;
    }

    static List<Path> leftoversUnchecked(Path dir, String prefix) {
        try {
            return Files.isDirectory(dir) ? leftovers(dir, prefix) : List.of();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Each file of {@code dir} with its length, in name order. */
    static List<String> listing(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName() + " " + f.toFile().length()).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A copy of the partition with one payload byte of its fifth batch flipped: interior damage, refused; the
     * accept-loss cut truncates the log there and moves every later segment aside, quarantining nearly all of it.
     */
    static Path damaged(String name) {
        return damaged(partition, name);
    }

    static Path damaged(Path source, String name) {
        try {
            return damage(source, name);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path damage(Path source, String name) throws IOException {
        Path dir = Partitions.partitionDir(root, name, 1);
        deleteTree(dir);
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(source)) {
            for (Path f : s.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        Path log;
        try (Stream<Path> s = Files.list(dir)) {
            log = s.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().findFirst().orElseThrow();
        }
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(log,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            long at = 4 * (4096 + 64 + 56) + 300;
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x55)).rewind();
            ch.write(b, at);
        }
        return dir;
    }

    /**
     * collect, paced by --max-read-rate so that it is still reading when the signal comes: the manifest's temporary
     * file is removed and a manifest that was there is left as it was.
     */
    @Test
    void collect_sigint_and_sigterm_removeTheTemporaryFile_leaveAnExistingManifestAlone() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path dir = Files.createDirectories(root.resolve("collect-" + signal));
            Path out = dir.resolve("m.ndjson");
            Run r = interrupt(signal, p -> p.getFileName().toString().equals(".m.ndjson.segtool-tmp"), dir,
                    () -> write(out, "the operator's earlier manifest"), "collect", partition, "-o", out,
                    "--node", "n1", "--durability=replicated", "--max-read-rate", "4M");
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            assertEquals("segtool: collect interrupted: " + out + " was not written (a file that was there is "
                    + "unchanged); nothing else changed\n", r.err, r.toString());
            assertEquals("the operator's earlier manifest", Files.readString(out));
            assertEquals(List.of(), leftovers(dir, ".m.ndjson."), "temporary files left");
        }
    }

    /**
     * In-process, the command's thread interrupted before it starts (as the signal handler does): repair, its dry
     * run and rebuild-index stop at their first read, one line, 130, nothing changed. Before, the interrupted read
     * of the inputs was "not repaired: cannot read the inputs: java.nio.channels.ClosedByInterruptException", exit 3.
     */
    @Test
    void repairAndRebuildIndex_interruptedBeforeTheyRead_nothingChanged() throws Exception {
        Partitions torn = Partitions.tornTail(root.resolve("early"));
        List<String> before = listing(torn.dir);
        for (Object[] args : new Object[][] {{"repair", torn.dir, "--durability=replicated"},
            {"repair", torn.dir, "--apply", "--durability=replicated"},
            {"rebuild-index", torn.dir, "--apply", "--durability=replicated"}}) {
            Cli.Result[] result = new Cli.Result[1];
            Thread t = new Thread(() -> {
                Thread.currentThread().interrupt();
                result[0] = Cli.run(args);
            });
            t.start();
            t.join();
            assertEquals(ExitCodes.CANCELLED, result[0].exit(), result[0].toString());
            // stopped while reading the partition's inputs (metadata, WAL), before any partition's run began
            assertEquals("segtool: " + args[0] + " interrupted: nothing changed\n", result[0].err(),
                    result[0].toString());
            assertEquals(before, listing(torn.dir));
        }
    }

    /** The outcome of one interrupted child. */
    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    /**
     * Starts segtool with {@code args}, waits until an entry of {@code dir} matches {@code writing} (the command has
     * started writing), sends SIGINT or SIGTERM, and returns how it ended. A run that ended on its own first is tried
     * again on a larger partition; {@code before} sets the scene for each try.
     */
    static Run interrupt(String signal, Predicate<Path> writing, Path dir, Runnable before, Object... args)
            throws Exception {
        return interrupt(signal, writing, dir, before, () -> grow(segments * 2), args);
    }

    /** As above, {@code larger} making the input larger after a try the signal came too late for. */
    static Run interrupt(String signal, Predicate<Path> writing, Path dir, Runnable before, Runnable larger,
            Object... args) throws Exception {
        return interrupt(signal, (java.util.function.BooleanSupplier) () -> {
            try (Stream<Path> s = Files.list(dir)) {
                return s.anyMatch(writing);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, before, larger, args);
    }

    /** As above, {@code started} saying the command has started writing. */
    static Run interrupt(String signal, java.util.function.BooleanSupplier started, Runnable before,
            Runnable larger, Object... args) throws Exception {
        for (int attempt = 0; attempt < 4; attempt++) {
            before.run();
            Run r = once(signal, started, args);
            if (r != null && !ownListingSeen(r)) {
                return r;
            }
            if (r == null) {
                larger.run();
            }
        }
        fail("segtool " + args[0] + " always finished before the signal reached it");
        return null;
    }

    /**
     * True when a repair or restore refused as in use (exit 4) because of this test's own look at the directory
     * (the listing that waits for the quarantine holds the directory open for a moment, and the in-use check, run
     * again before each step, can see it): that try says nothing about signals, and is made again as it was.
     */
    static boolean ownListingSeen(Run r) {
        // -q prints no holders ("not changed: the data is in use"): no other process touches these directories,
        // so an exit 4 that names no holder is this test's listing too
        boolean ours = r.exit == 4 && (r.out.contains("pid " + ProcessHandle.current().pid() + " ")
                || !r.out.contains("pid "));
        if (ours) {
            System.out.println("signals: the in-use check saw this test's listing; trying again");
        }
        return ours;
    }

    /** One try; null when the command finished before it could be interrupted. */
    private static Run once(String signal, java.util.function.BooleanSupplier started, Object... args)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        for (Object a : args) {
            cmd.add(String.valueOf(a));
        }
        Path out = Files.createTempFile(root, "child", ".out");
        Path err = Files.createTempFile(root, "child", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            boolean seen = false;
            while (!seen && p.isAlive() && System.nanoTime() < deadline) {
                seen = started.getAsBoolean();
                if (!seen) {
                    Thread.sleep(2);
                }
            }
            if (!seen && p.isAlive()) {
                fail("segtool " + args[0] + " did not start writing within 120 s");
            }
            if (seen) {
                Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start();
                assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal);
            }
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "segtool " + args[0] + " did not stop within 120 s");
            Run r = new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            if (r.exit == 0 || r.exit == 1) {
                // finished before the signal arrived: undo its output and try a larger input
                System.out.println("signals: " + args[0] + " finished before SIG" + signal + " reached it; trying "
                        + "a larger partition");
                return null;
            }
            return r;
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static List<Path> leftovers(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
        }
    }

    static void write(Path p, String text) {
        try {
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
