package segtool.shell.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.AutoComplete;
import picocli.CommandLine;
import segtool.shell.render.HelpLayout;
import segtool.shell.CommandLines;
import segtool.shell.ShellSession;

/**
 * Generates the checked-in documentation from the picocli model: {@code man/segtool.1}, one
 * {@code man/segtool-<command>.1} per command (roff, see {@link ManPage}), and {@code completion/segtool.bash}
 * (picocli's AutoComplete) with {@code completion/segtool.zsh} (the same script, loaded through zsh's
 * bashcompinit). The build runs it into {@code shell/target/generated-docs}; {@code DocsTest} fails when the
 * checked-in copies differ. To refresh them, from the repository root:
 * <pre>  mvn -B -q -DskipTests process-classes -Dsegtool.docs.dir=$PWD</pre>
 */
public final class Docs {
    /** The width the synopses are laid out for. */
    static final int WIDTH = 80;
    public static final String REGENERATE = "mvn -B -q -DskipTests process-classes -Dsegtool.docs.dir=$PWD";

    private Docs() {
    }

    /** Every generated file, by path relative to the output root, in a stable order. */
    public static Map<String, String> generate() {
        Map<String, String> out = new LinkedHashMap<>();
        CommandLine root = CommandLines.oneShot();
        CommandLine shell = CommandLines.create(ShellSession.oneShot(), CommandLine.defaultFactory(), true);
        // the pages are the same whatever terminal builds them
        HelpLayout.install(root, () -> WIDTH);
        HelpLayout.install(shell, () -> WIDTH);
        List<CommandLine> commands = new ArrayList<>();
        for (CommandLine sub : root.getSubcommands().values()) {
            if (sub.getParent() == root && !sub.getCommandSpec().usageMessage().hidden()
                    && !(sub.getCommand() instanceof CommandLine.HelpCommand) && !commands.contains(sub)) {
                commands.add(sub);
            }
        }
        out.put("man/segtool.1", ManPage.main(root, commands, shell));
        for (CommandLine c : commands) {
            out.put("man/segtool-" + c.getCommandName() + ".1", ManPage.command(c, commands, shell));
        }
        String bash = AutoComplete.bash("segtool", root);
        out.put("completion/segtool.bash", bash);
        // zsh runs the bash script through bashcompinit (the script's own ZSH_VERSION branch sets that up), so
        // the zsh file only loads its sibling instead of carrying a second copy
        out.put("completion/segtool.zsh", "# zsh completion for segtool. Load it from ~/.zshrc with:\n"
                + "#   source /path/to/completion/segtool.zsh\n"
                + "# It loads segtool.bash from the same directory, which enables compinit and bashcompinit\n"
                + "# under zsh. Generated; do not edit.\n"
                + "source \"${${(%):-%x}:A:h}/segtool.bash\"\n");
        return out;
    }

    /** Writes the files under {@code args[0]}; files whose content is unchanged are left untouched. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: Docs OUTPUT_ROOT");
        }
        Path root = Path.of(args[0]);
        int written = 0;
        for (Map.Entry<String, String> e : generate().entrySet()) {
            Path p = root.resolve(e.getKey());
            byte[] bytes = e.getValue().getBytes(StandardCharsets.UTF_8);
            if (Files.exists(p) && java.util.Arrays.equals(Files.readAllBytes(p), bytes)) {
                continue;
            }
            Files.createDirectories(p.getParent());
            Files.write(p, bytes);
            written++;
        }
        if (written > 0 && Boolean.getBoolean("segtool.docs.verbose")) {
            System.out.println("segtool docs: " + written + " file(s) written under " + root.toAbsolutePath());
        }
    }
}
