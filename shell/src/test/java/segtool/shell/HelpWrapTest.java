package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import segtool.shell.render.HelpLayout;

/**
 * Issue 14.15: --help never breaks a token across lines. Every command's help is laid out at 60, 80 and 120 columns
 * and compared with the same help laid out too wide to wrap at all: every word of the unwrapped text must appear
 * whole in the wrapped one (picocli's own wrapping cut {@code segtool.plan/2} after the dot, {@code expected.json},
 * {@code --stream=ID[,ID...]} after the comma). No token is split, not even one wider than its column (stats'
 * synopsis at 60 columns, a restore option's description): it gets a line of its own, moved left to end within the
 * width, and only a token wider than the whole width overflows its line.
 */
class HelpWrapTest {
    private static final int UNWRAPPED = 5000;

    static String help(int width, String... command) {
        String[] args = Arrays.copyOf(command, command.length + 1);
        args[command.length] = "--help";
        CommandLine cmd = CommandLines.oneShot(args);
        HelpLayout.install(cmd, () -> width);
        StringWriter out = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(new StringWriter(), true));
        assertEquals(0, cmd.execute(args), String.join(" ", args));
        return out.toString();
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private static List<String[]> commands() {
        List<String[]> all = new ArrayList<>();
        all.add(new String[0]);
        for (String name : Segtool.NAMES) {
            all.add(new String[]{name});
        }
        return all;
    }

    @ParameterizedTest(name = "width {0}")
    @ValueSource(ints = {60, 80, 120})
    void everyCommandsHelp_keepsEveryTokenWhole(int width) {
        for (String[] command : commands()) {
            String name = command.length == 0 ? "segtool" : command[0];
            String wrapped = help(width, command);
            Set<String> whole = new HashSet<>(words(wrapped));
            for (String line : wrapped.split("\n")) {
                boolean oneWideToken = words(line).size() == 1 && line.length() > width && line.equals(line.strip());
                assertTrue(line.length() <= width || oneWideToken, name + ": wider than " + width + ": [" + line
                        + "]");
            }
            for (String w : words(help(UNWRAPPED, command))) {
                assertTrue(whole.contains(w), name + " at " + width + ": '" + w + "' is broken across lines:\n"
                        + wrapped);
            }
        }
    }

    /** The wrapped help is the unwrapped one re-flowed: the same words in the same order. */
    @ParameterizedTest(name = "width {0}")
    @ValueSource(ints = {60, 80, 120})
    void wrapping_onlyMovesWords(int width) {
        for (String[] command : commands()) {
            assertEquals(words(help(UNWRAPPED, command)), words(help(width, command)), String.join(" ", command));
        }
    }

    /**
     * The layout itself: a token wider than the description column starts a line of its own, moved left just enough
     * to end at the table's width (the option column is empty there); the words around it flow as before; a token
     * wider than the whole table starts at column 0 and overflows. The row that names the option keeps its name, and
     * wrapped lines keep picocli's indent (column start 10, indent 1, wrapped lines 2 more).
     */
    @Test
    void aTokenWiderThanItsColumn_getsALineOfItsOwn_endingAtTheWidth() {
        CommandLine.Help.ColorScheme plain = CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF);
        CommandLine.Help.Column[] columns = {
            new CommandLine.Help.Column(10, 2, CommandLine.Help.Column.Overflow.SPAN),
            new CommandLine.Help.Column(20, 1, CommandLine.Help.Column.Overflow.WRAP)};
        HelpLayout.WholeWords table = HelpLayout.WholeWords.of(plain, false, columns);
        String token = "<partition>.quarantine.<time>";   // 29 characters: wider than 19, narrower than 30
        table.addRowValues("--opt", "a " + token + " b c");
        table.addRowValues("--first", token);
        table.addRowValues("--huge", "x".repeat(35) + " y");
        assertEquals(String.join(System.lineSeparator(),
                "  --opt    a",
                " " + token,
                "             b c",
                "  --first",
                " " + token,
                "  --huge",
                "x".repeat(35),
                "             y", ""), table.toString());
    }

    @Test
    void theNamesPicocliUsedToCut_stayWhole() {
        String plan = help(60, "plan");
        assertTrue(plan.contains("(segtool.plan/2):"), plan);
    }

    @Test
    void theHelpFollowsColumns() throws Exception {
        Cli.Result r = Proc.run(Map.of("COLUMNS", "60"), "plan", "--help");
        assertEquals(0, r.exit(), r.toString());
        for (String line : r.out().split("\n")) {
            assertTrue(line.length() <= 60, "[" + line + "]\n" + r.out());
        }
        assertTrue(r.out().contains("(segtool.plan/2):"), r.out());
        Cli.Result wide = Proc.run(Map.of("COLUMNS", "120"), "plan", "--help");
        assertTrue(wide.out().lines().anyMatch(l -> l.length() > 80), wide.out());
    }
}
