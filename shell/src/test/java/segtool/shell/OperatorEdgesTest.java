package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;

/**
 * The operator's edges (issue 14): the mode before the question, one meaning of --quiet, numbers in the spec's
 * terms, --yes without --apply. Black-box through {@link Cli}, on partitions the byte-exact writer builds.
 */
class OperatorEdgesTest {
    @TempDir
    static Path root;

    static Partitions healthy;

    @BeforeAll
    static void build() {
        healthy = Partitions.healthy(root, "healthy");
    }

    /** A fresh torn partition (repairs change it). */
    static Partitions torn(String name) throws IOException {
        Partitions p = Partitions.healthy(root, name);
        Partitions.truncate(p.last().log(), p.last().length() - 300);
        return p;
    }

    // ---- 14.3: the durability and the hidden-loss warning before the plan -----------------------------------

    @Test
    void repairDryRun_showsTheModeAndTheWarningBeforeThePlan() throws IOException {
        Partitions p = torn("mode-dry");
        Cli.Result r = Cli.run("repair", p.dir);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        String out = r.out();
        int mode = out.indexOf("s1/t1/p1: durability=replicated (from the --durability default");
        int warning = out.indexOf("  WARNING: no metadata/ says this topic's durability, so the repair uses the "
                + "default, replicated; if the topic is persisted, pass --durability=persisted, or this repair can "
                + "hide durable data loss");
        int plan = out.indexOf("s1/t1/p1: would change files (dry run");
        assertTrue(mode == 0 && warning > mode && plan > warning, out);
        assertTrue(out.indexOf("truncate_log") > plan, out);
    }

    @Test
    void repairWithDurabilityGiven_showsTheModeWithoutTheWarning() throws IOException {
        Partitions p = torn("mode-given");
        Cli.Result r = Cli.run("repair", "--durability=persisted", p.dir);
        assertTrue(r.out().startsWith("s1/t1/p1: durability=persisted (from --durability"), r.out());
        assertFalse(r.out().contains("WARNING") || r.err().contains("WARNING"), r.toString());
    }

    /** A healthy partition whose first index is gone: rebuild-index has work to do. */
    static Partitions indexGone(String name) throws IOException {
        Partitions p = Partitions.healthy(root, name);
        Files.delete(p.segment(0).index());
        return p;
    }

    @Test
    void rebuildIndex_showsTheModeAndTheWarningFirst() throws IOException {
        Partitions p = indexGone("mode-rebuild");
        Cli.Result r = Cli.run("rebuild-index", p.dir);
        int warning = r.out().indexOf("WARNING: no metadata/ says");
        assertTrue(r.out().startsWith("s1/t1/p1: durability=replicated") && warning > 0
                && warning < r.out().indexOf("s1/t1/p1: would change"), r.toString());
    }

    @Test
    void repairJsonOrQuiet_warnsOnStderr() throws IOException {
        Partitions p = torn("mode-json");
        for (Object[] args : new Object[][]{{"repair", "--json", p.dir}, {"repair", "-q", p.dir}}) {
            Cli.Result r = Cli.run(args);
            assertTrue(r.err().contains("segtool: WARNING: " + p.dir + ": no metadata/ says this topic's durability"),
                    r.toString());
            assertFalse(r.out().contains("WARNING"), r.toString());
        }
    }

    // ---- 14.14: -y without --apply -------------------------------------------------------------------------

    @Test
    void yesWithoutApply_isADryRunAndSaysSo() throws IOException {
        Partitions p = torn("yes");
        Partitions gone = indexGone("yes-rebuild");
        long before = Files.size(p.last().log());
        for (String cmd : new String[]{"repair", "rebuild-index"}) {
            Cli.Result r = Cli.run(cmd, "-y", cmd.equals("repair") ? p.dir : gone.dir);
            assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
            assertTrue(r.err().contains("segtool: note: --yes without --apply: this is a dry run and nothing is "
                    + "changed; add --apply to change files"), r.toString());
            assertTrue(r.out().contains("would change files (dry run"), r.toString());
        }
        assertEquals(before, Files.size(p.last().log()));
        assertFalse(Files.exists(gone.segment(0).index()));
        Cli.Result applied = Cli.run("repair", "-y", "--apply", p.dir);
        assertEquals(ExitCode.CLEAN, applied.exit(), applied.toString());
        assertFalse(applied.err().contains("--yes without --apply"), applied.err());
        long repaired = Files.size(p.last().log());

        // restore shares the switch, and the answer
        Path quarantine;
        try (var in = Files.list(p.dir.getParent())) {
            quarantine = in.filter(d -> d.getFileName().toString().contains(".segtool-quarantine.")).findFirst()
                    .orElseThrow();
        }
        Cli.Result restore = Cli.run("restore", "-y", quarantine);
        assertEquals(ExitCode.CHANGES, restore.exit(), restore.toString());
        assertTrue(restore.err().contains("segtool: note: --yes without --apply: this is a dry run"), restore.err());
        assertEquals(repaired, Files.size(p.last().log()), "nothing restored");
        Cli.Result restored = Cli.run("restore", "-y", "--apply", quarantine);
        assertEquals(ExitCode.CLEAN, restored.exit(), restored.toString());
        assertEquals(before, Files.size(p.last().log()));
    }

    // ---- 14.5: one meaning of --quiet ----------------------------------------------------------------------

    @Test
    void repairQuietApply_keepsTheQuarantinePath() throws IOException {
        Partitions p = torn("quiet-apply");
        Cli.Result r = Cli.run("repair", "-q", "--apply", p.dir);
        assertEquals(ExitCode.CLEAN, r.exit(), r.toString());
        String[] lines = r.out().split("\n");
        assertEquals(2, lines.length, r.out());
        assertTrue(lines[0].startsWith("s1/t1/p1: repaired: 3 operation(s) applied"), r.out());
        assertTrue(lines[1].matches("  quarantine: \\S+\\.segtool-quarantine\\.\\S+; undo with: segtool restore "
                + "\\S+ --apply"), r.out());
        String q = lines[1].substring("  quarantine: ".length(), lines[1].indexOf(';'));
        assertTrue(Files.isDirectory(Path.of(q)), q);
    }

    @Test
    void quietTwice_printsNothingInEveryCommand_andKeepsTheExitCode() throws IOException {
        Partitions p = torn("quiet-twice");
        Path seg = p.last().log();
        Object[][] runs = {
            {"scan", p.dir}, {"explain", p.dir}, {"segments", p.dir}, {"stats", p.dir}, {"index", seg},
            {"batches", seg}, {"messages", p.dir}, {"find", "--offset", "3", p.dir}, {"hexdump", seg, "0", "16"},
            {"repair", p.dir}, {"doctor", p.dir},
        };
        for (Object[] run : runs) {
            Cli.Result loud = Cli.run(run);
            for (String qq : new String[]{"-qq", "-q -q", "--quiet --quiet"}) {
                Object[] args = new Object[run.length + qq.split(" ").length];
                System.arraycopy(run, 0, args, 0, run.length);
                System.arraycopy(qq.split(" "), 0, args, run.length, qq.split(" ").length);
                Cli.Result r = Cli.run(args);
                assertEquals("", r.out(), run[0] + " " + qq + ": " + r);
                assertEquals(loud.exit(), r.exit(), run[0] + " " + qq + ": " + r);
            }
        }
    }

    @Test
    void quietHelp_saysTheOneMeaning() {
        for (String cmd : new String[]{"scan", "segments", "stats", "find", "repair", "messages"}) {
            String help = Cli.run(cmd, "--help").out().replaceAll("\\s+", " ");
            assertTrue(help.contains("Twice (-qq) prints nothing on stdout: the exit code alone answers."), cmd);
        }
    }

    // ---- 14.11: numbers ------------------------------------------------------------------------------------

    @Test
    void maxMessageSizeUpper_rejectsZeroAndAbsurd() {
        for (String v : new String[]{"0", "-1", "1000", "99999999999", "abc"}) {
            Cli.Result r = Cli.run("scan", "--max-message-size-upper=" + v, healthy.dir);
            assertEquals(ExitCode.USAGE, r.exit(), v + ": " + r);
            assertEquals("", r.out(), v);
            assertFalse(r.err().contains("long"), r.err());
            assertTrue(r.err().startsWith("segtool: Invalid value for option '--max-message-size-upper': '" + v
                    + "' is "), r.err());
        }
        assertEquals(ExitCode.CLEAN, Cli.run("scan", "--max-message-size-upper=1048576", healthy.dir).exit());
        assertEquals(ExitCode.CLEAN, Cli.run("batches", "--max-message-size-upper=268435456",
                healthy.segment(0).log()).exit());
    }

    @Test
    void negativeCounts_areRefusedInTheSpecsTerms() {
        Path seg = healthy.segment(0).log();
        Object[][] runs = {
            {"messages", "--limit=-1", healthy.dir}, {"messages", "--max-bytes=-5", healthy.dir},
            {"index", "--limit=-2", seg}, {"batches", "--limit=-3", seg},
        };
        for (Object[] run : runs) {
            Cli.Result r = Cli.run(run);
            assertEquals(ExitCode.USAGE, r.exit(), r.toString());
            assertTrue(r.err().contains("is negative; give a count of 0 or more")
                    || r.err().contains("is negative; give an unsigned 64-bit number, 0 to 18446744073709551615"),
                    r.err());
            assertFalse(r.err().contains("long") || r.err().contains("int"), r.err());
        }
        Cli.Result word = Cli.run("messages", "--limit=ten", healthy.dir);
        assertTrue(word.err().contains("'ten' is not a whole number (0 or more, decimal digits)"), word.err());
    }

    @Test
    void partitionId_takesTheWholeU64Range() {
        // the healthy partition's batches carry partition_id 1: any other id is a ForeignBatch, named unsigned
        Cli.Result big = Cli.run("scan", "--partition-id=9223372036854775808", healthy.dir);
        assertEquals(ExitCode.REFUSED, big.exit(), big.toString());
        assertTrue(big.out().contains("s1/t1/p9223372036854775808: refused: ForeignBatch"), big.out());
        Cli.Result max = Cli.run("scan", "--partition-id=18446744073709551615", healthy.dir);
        assertEquals(ExitCode.REFUSED, max.exit(), max.toString());
        assertTrue(max.out().contains("s1/t1/p18446744073709551615: refused: ForeignBatch"), max.out());
        Cli.Result hex = Cli.run("batches", "--partition-id=0xFFFFFFFFFFFFFFFF", healthy.segment(0).log());
        assertTrue(hex.out().contains("partition_id 1, not 18446744073709551615"), hex.out());
        Cli.Result over = Cli.run("scan", "--partition-id=18446744073709551616", healthy.dir);
        assertEquals(ExitCode.USAGE, over.exit());
        assertTrue(over.err().contains("'18446744073709551616' is too large: an unsigned 64-bit number is at most "
                + "18446744073709551615 (2^64-1)"), over.err());
    }

    @Test
    void quietTwice_asItsOwnProcess_printsNothing() throws Exception {
        Partitions p = torn("quiet-process");
        for (String cmd : new String[]{"scan", "segments", "explain", "stats", "repair"}) {
            Cli.Result r = Proc.run(java.util.Map.of(), cmd, "-qq", p.dir);
            assertEquals("", r.out(), cmd + ": " + r);
            assertEquals(Cli.run(cmd, p.dir).exit(), r.exit(), cmd + ": " + r);
        }
    }

    // ---- 14.6: one exit-code rule --------------------------------------------------------------------------

    @Test
    void pastTheEnd_isTheSameCodeInEveryReadCommand() {
        // the healthy partition holds offsets 0..299 in three segments; its last log is shorter than 1,000,000
        Path last = healthy.last().log();
        Object[][] runs = {
            {"find", "--offset", "300", healthy.dir}, {"find", "--offset", "999999", healthy.dir},
            {"find", "--timestamp", "4000000000000000", healthy.dir}, {"messages", "--offset", "300", healthy.dir},
            {"messages", "--offset", "999999", last}, {"batches", "--from", "1000000", last},
            {"hexdump", last, "1000000"},
        };
        for (Object[] run : runs) {
            Cli.Result r = Cli.run(run);
            assertEquals(ExitCode.USAGE, r.exit(), java.util.Arrays.toString(run) + ": " + r);
            assertTrue(r.err().startsWith("segtool: ") && r.err().contains("past the end")
                    || r.err().contains("no batch at or after it"), java.util.Arrays.toString(run) + ": " + r);
        }
        // inside the data: found, exit 0
        assertEquals(ExitCode.CLEAN, Cli.run("find", "--offset", "299", healthy.dir).exit());
        assertEquals(ExitCode.CLEAN, Cli.run("messages", "--offset", "299", healthy.dir).exit());
        // a usage error prints no document (docs/json.md): the line on stderr is all
        for (Object[] run : runs) {
            Object[] json = java.util.Arrays.copyOf(run, run.length + 1);
            json[run.length] = "--json";
            Cli.Result r = Cli.run(json);
            assertEquals(ExitCode.USAGE, r.exit(), java.util.Arrays.toString(json) + ": " + r);
            assertEquals("", r.out(), java.util.Arrays.toString(json) + ": " + r);   // not even a line end
            assertEquals(1, r.err().lines().count(), java.util.Arrays.toString(json) + ": " + r);
        }
    }

    @Test
    void segments_agreesWithScan_onEveryPartitionScanCallsClean() {
        Path gallery = Path.of("..", "samples", "gallery").toAbsolutePath().normalize();
        int clean = 0;
        for (String shape : new String[]{"healthy", "anchored-gap", "data-dir", "non-canonical-names", "torn-tail",
            "interior-damage", "hole", "wal-checkpoint"}) {
            Path dir = gallery.resolve(shape);
            int scan = Cli.run("scan", "-qq", dir).exit();
            int segments = Cli.run("segments", "-qq", dir).exit();
            assertTrue(segments == ExitCode.CLEAN || segments == ExitCode.CHANGES, shape + ": " + segments);
            if (scan == ExitCode.CLEAN) {
                clean++;
                assertEquals(ExitCode.CLEAN, segments, shape);
            }
        }
        assertEquals(3, clean);
    }

    // ---- 14.15: --version names the revision modelled ------------------------------------------------------

    @Test
    void version_namesTheIggyRecoveryRevision() {
        Cli.Result r = Cli.run("--version");
        assertEquals(ExitCode.CLEAN, r.exit());
        assertTrue(r.out().contains("apache/iggy#3970") && r.out().contains("apache/iggy#4092"), r.out());
        assertTrue(Cli.run("scan", "--version").out().contains("apache/iggy#3970"));
    }
}
