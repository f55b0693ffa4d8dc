package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import segtool.analyzers.exit.ExitCode;

/** {@code --stream}, {@code --topic}, {@code --partition}: a list without an id is a usage error, not "all". */
class SelectionOptionTest {
    private static final Path HEALTHY = Path.of("..", "samples", "gallery", "healthy").toAbsolutePath().normalize();
    private static final String[] COMMANDS = {"scan", "explain", "segments", "stats", "repair"};

    /**
     * {@code --partition ,} split into no ids at all, which selected every partition (exit 0), while
     * {@code --partition 99} is exit 64. Now each of the three options refuses a list of separators only, with one
     * line naming it, in every command that takes them, --json included.
     */
    @Test
    void aListOfSeparatorsOnly_isAUsageErrorNamingTheOption() {
        String[][] cases = {{"--partition", ",", "partition"}, {"--partition", ",,", "partition"},
            {"--stream", ",", "stream"}, {"--topic", ",,,", "topic"}};
        for (String command : COMMANDS) {
            for (String[] c : cases) {
                for (boolean json : new boolean[]{false, true}) {
                    Cli.Result r = json ? Cli.run(command, c[0], c[1], "--json", HEALTHY)
                            : Cli.run(command, c[0], c[1], HEALTHY);
                    String what = command + " " + c[0] + " " + c[1] + (json ? " --json" : "") + ": " + r;
                    assertEquals(ExitCode.USAGE, r.exit(), what);
                    assertEquals("", r.out(), what);
                    assertEquals("segtool: " + c[0] + " '" + c[1] + "' names no " + c[2] + " id (give ID[,ID...], "
                            + "comma-separated ids)\n", r.err(), what);
                }
            }
        }
        // given twice, the empty one is refused too (picocli would have kept only the other's ids)
        Cli.Result twice = Cli.run("scan", "--partition", ",", "--partition", "1", HEALTHY);
        assertEquals(ExitCode.USAGE, twice.exit(), twice.toString());
        assertEquals("segtool: --partition ',' names no partition id (give ID[,ID...], comma-separated ids)\n",
                twice.err());
    }

    /** Lists with ids still select as before; a trailing separator is harmless. */
    @Test
    void listsWithIds_selectAsBefore() {
        assertEquals(ExitCode.CLEAN, Cli.run("scan", "-qq", "--partition", "1", HEALTHY).exit());
        assertEquals(ExitCode.CLEAN, Cli.run("scan", "-qq", "--partition", "1,", HEALTHY).exit());
        assertEquals(ExitCode.CLEAN, Cli.run("scan", "-qq", "--stream", "1", "--topic", "1,2", HEALTHY).exit());
        assertEquals(ExitCode.USAGE, Cli.run("scan", "-qq", "--partition", "99", HEALTHY).exit());
        assertEquals(ExitCode.CLEAN, Cli.run("scan", "-qq", HEALTHY).exit());
    }

    /** In the shell the same command objects run again: a refused list does not stick, nor a good one. */
    @Test
    void inTheShell_eachRunIsJudgedOnItsOwnOptions() {
        List<ShellTwiceTest.Step> s = ShellTwiceTest.session("scan -qq --partition , " + HEALTHY,
                "scan -qq " + HEALTHY, "scan -qq --partition 1 " + HEALTHY, "scan -qq --topic , " + HEALTHY);
        assertEquals(ExitCode.USAGE, s.get(0).exit(), s.get(0).toString());
        assertEquals("segtool: --partition ',' names no partition id (give ID[,ID...], comma-separated ids)\n",
                s.get(0).output());
        assertEquals(ExitCode.CLEAN, s.get(1).exit(), s.get(1).toString());
        assertEquals(ExitCode.CLEAN, s.get(2).exit(), s.get(2).toString());
        assertEquals(ExitCode.USAGE, s.get(3).exit(), s.get(3).toString());
    }
}
