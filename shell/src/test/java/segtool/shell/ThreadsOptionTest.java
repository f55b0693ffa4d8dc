package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --threads N} (scan, explain, collect, compare) changes how many cores judge, never what they find: the same
 * JSON for 1, 2 and 5 threads on a data directory of healthy and torn partitions and on one partition; a count
 * below 1 is a usage error naming the option.
 */
class ThreadsOptionTest {
    @TempDir
    Path root;

    private Path dataDir() throws Exception {
        Path dd = root.resolve("node");
        for (long p = 1; p <= 4; p++) {
            DiscoveryTest.partition(dd, 1, 1, p);
        }
        DiscoveryTest.tear(dd, 1, 1, 2);
        DiscoveryTest.tear(dd, 1, 1, 4);
        return dd;
    }

    @Test
    void scanAndExplain_sameReport_whateverTheThreadCount() throws Exception {
        Path dd = dataDir();
        Path one = dd.resolve("streams/1/topics/1/partitions/2");
        for (String command : new String[]{"scan", "explain"}) {
            for (Path target : new Path[]{dd, one}) {
                Cli.Result base = Cli.run(command, target, "--json", "--threads", "1");
                assertEquals(1, base.exit(), base.toString());
                assertTrue(base.out().contains("\"partitions\""), base.toString());
                for (String n : new String[]{"2", "5"}) {
                    Cli.Result r = Cli.run(command, target, "--json", "--threads", n);
                    assertEquals(base.exit(), r.exit(), r.toString());
                    assertEquals(base.out(), r.out(), command + " " + target + " --threads " + n);
                }
            }
        }
    }

    @Test
    void compare_sameResult_whateverTheThreadCount() throws Exception {
        Path dd = dataDir();
        Cli.Result base = Cli.run("compare", dd, dd, "--json", "--threads", "1");
        Cli.Result two = Cli.run("compare", dd, dd, "--json", "--threads", "2");
        Cli.Result old = Cli.run("compare", dd, dd, "--json", "--max-concurrency", "3");
        assertEquals(base.exit(), two.exit(), two.toString());
        assertEquals(base.out(), two.out());
        assertEquals(base.out(), old.out());
    }

    @Test
    void zeroThreads_isAUsageError() throws Exception {
        Path dd = dataDir();
        for (String command : new String[]{"scan", "explain"}) {
            Cli.Result r = Cli.run(command, dd, "--threads", "0");
            assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
            assertTrue(r.err().contains("--threads") && r.err().contains("from 1 to 4096"), r.toString());
        }
        // negative and huge values are refused in the same terms (not "a count of 0 or more", not "at most 2^31-1")
        for (String bad : new String[]{"-1", "4097", "99999999999", "99999999999999999999999"}) {
            Cli.Result r = Cli.run("scan", dd, "--threads", bad);
            assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
            assertTrue(r.err().startsWith("segtool: Invalid value for option '--threads': '" + bad + "' is not a "
                    + "number of threads from 1 to 4096\n"), r.toString());
        }
        Cli.Result c = Cli.run("compare", dd, dd, "--threads", "0");
        assertEquals(ExitCodes.USAGE, c.exit(), c.toString());
        assertTrue(c.err().contains("--threads must be at least 1"), c.toString());
    }
}
