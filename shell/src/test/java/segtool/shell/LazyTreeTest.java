package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Main builds only the invoked subcommand's model (start-up, issue 15). The lazy tree must be invisible: every
 * subcommand is still reachable by its name, the usage still lists them all, and each one's help is the same text
 * as in the full tree.
 */
class LazyTreeTest {
    /** What {@code args} prints on stdout, and its exit code, run on {@code cmd}. */
    static String run(CommandLine cmd, String... args) {
        StringWriter out = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(new StringWriter(), true));
        int exit = cmd.execute(args);
        return "exit " + exit + "\n" + out;
    }

    @Test
    void everyNameIsItsCommandsAnnotatedName() {
        for (String name : Segtool.NAMES) {
            Class<?> c = Segtool.subcommand(name);
            assertNotNull(c, name);
            Command a = c.getAnnotation(Command.class);
            assertEquals(name, a.name(), c.getName());
            assertEquals(0, a.aliases().length, name + " has aliases; the lazy tree looks commands up by name only");
        }
        assertEquals(null, Segtool.subcommand("no-such-command"));
    }

    @Test
    void theFullTreeHoldsEveryNameInUsageOrder() {
        List<String> names = new ArrayList<>(CommandLines.oneShot().getSubcommands().keySet());
        assertEquals(List.of(Segtool.NAMES), names);
    }

    @Test
    void aCommandLineNamingOneCommandBuildsOnlyThatOne() {
        for (String name : Segtool.NAMES) {
            String[] args = {name, "--help"};
            List<String> built = new ArrayList<>(CommandLines.oneShot(args).getSubcommands().keySet());
            if (name.equals("help") || name.equals("generate-completion")) {
                assertEquals(List.of(Segtool.NAMES), built, name + " reads the whole tree");
            } else {
                assertEquals(List.of(name), built);
            }
        }
        assertArrayEquals(new String[0], CommandLines.reachable(new String[] {"--version"}));
        assertArrayEquals(Segtool.NAMES, CommandLines.reachable(new String[] {"--help"}));
        assertArrayEquals(Segtool.NAMES, CommandLines.reachable(new String[] {"scna", "x"}));
        assertArrayEquals(Segtool.NAMES, CommandLines.reachable(new String[0]));
    }

    @Test
    void eachCommandsHelpIsTheSameTextAsInTheFullTree() {
        for (String name : Segtool.NAMES) {
            String full = run(CommandLines.oneShot(), name, "--help");
            String lazy = run(CommandLines.oneShot(new String[] {name, "--help"}), name, "--help");
            assertTrue(full.startsWith("exit 0\n"), name + ": " + full);
            assertTrue(full.length() > 100, name + ": " + full);
            assertEquals(full, lazy, name);
        }
    }

    @Test
    void theUsageListsEveryVisibleCommandAndHelpNamesThem() {
        String full = run(CommandLines.oneShot(), "--help");
        assertEquals(full, run(CommandLines.oneShot(new String[] {"--help"}), "--help"));
        assertEquals(full, run(CommandLines.oneShot(new String[] {"help"}), "help"));
        CommandLine tree = CommandLines.oneShot();
        for (String name : Segtool.NAMES) {
            if (!tree.getSubcommands().get(name).getCommandSpec().usageMessage().hidden()) {
                assertTrue(full.contains("\n  " + name + " "), name + " missing from the usage:\n" + full);
            }
        }
        assertEquals(run(CommandLines.oneShot(), "help", "scan"),
                run(CommandLines.oneShot(new String[] {"help", "scan"}), "help", "scan"));
    }

    @Test
    void noOptionNeedsTheConvertersLeftOut() {
        List<String> found = new ArrayList<>();
        for (CommandLine sub : CommandLines.oneShot().getSubcommands().values()) {
            for (CommandLine.Model.ArgSpec arg : sub.getCommandSpec().args()) {
                for (Class<?> type : arg.auxiliaryTypes()) {
                    String name = type.getName();
                    boolean left = name.startsWith("java.sql.") || name.startsWith("java.time.");
                    if (left && arg.converters().length == 0) {
                        found.add(sub.getCommandName() + " " + arg + ": " + name);
                    }
                }
            }
        }
        assertEquals(List.of(), found, "options typed with converters CommandLines leaves out of picocli");
        assertEquals(CommandLines.CONVERTER_EXCLUDES, System.getProperty("picocli.converters.excludes"));
        // and no class-path lookup of Groovy's closures (a miss opens the jar the class-data archive spares)
        CommandLines.oneShot(new String[] {"--version"});
        assertEquals("true", System.getProperty("picocli.disable.closures"));
    }

    @Test
    void versionNeedsNoSubcommandAndPrintsTheSame() {
        String full = run(CommandLines.oneShot(), "--version");
        assertTrue(full.startsWith("exit 0\nsegtool "), full);
        assertEquals(full, run(CommandLines.oneShot(new String[] {"--version"}), "--version"));
        assertEquals(full, run(CommandLines.oneShot(new String[] {"-V"}), "-V"));
    }
}
