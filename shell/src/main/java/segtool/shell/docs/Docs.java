package segtool.shell.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        String bash = countedFlags(AutoComplete.bash("segtool", root), root);
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

    /**
     * The bash script with every counted flag (a {@code boolean[]} option such as {@code -q}/{@code --quiet}, given
     * once or twice) among the flags: picocli's generator takes any option not of type boolean for one that takes a
     * value, so after {@code -q} it completed nothing (waiting for -q's value) where the next word is a path.
     */
    static String countedFlags(String bash, CommandLine root) {
        Set<List<String>> counted = new LinkedHashSet<>();
        collectCounted(root, counted);
        for (List<String> names : counted) {
            String quoted = String.join(" ", names.stream().map(n -> "'" + n + "'").toList());
            String arm = String.join("|", names.stream().map(n -> "'" + n + "'").toList()) + ")";
            StringBuilder fixed = new StringBuilder();
            boolean moved = false;   // this function's arg_opts held the flag: its case arm goes too
            List<String> lines = List.of(bash.split("\n", -1));
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String t = line.strip();
                if (t.startsWith("function ")) {
                    moved = false;
                } else if (t.startsWith("local arg_opts=\"") && (" " + t).contains(" " + quoted)) {
                    line = line.replace("\"" + quoted + " ", "\"").replace(" " + quoted, "").replace(quoted, "");
                    // the flag_opts line is the one before
                    int f = fixed.lastIndexOf("local flag_opts=\"");
                    int close = fixed.indexOf("\"\n", f + "local flag_opts=\"".length());
                    fixed.insert(close, " " + quoted);
                    moved = true;
                } else if (moved && t.equals(arm) && i + 2 < lines.size() && lines.get(i + 1).strip().equals("return")
                        && lines.get(i + 2).strip().equals(";;")) {
                    i += 2;
                    continue;
                }
                fixed.append(line).append('\n');
            }
            bash = fixed.substring(0, fixed.length() - 1);
        }
        return bash;
    }

    private static void collectCounted(CommandLine c, Set<List<String>> out) {
        for (CommandLine.Model.OptionSpec o : c.getCommandSpec().options()) {
            if (o.type() == boolean[].class) {
                out.add(List.of(o.names()));
            }
        }
        for (CommandLine sub : c.getSubcommands().values()) {
            collectCounted(sub, out);
        }
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
