package segtool.shell;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/**
 * Runs segtool black-box through the tree {@link Main} builds ({@link CommandLines#oneShot(String[])}: only the
 * subcommand invoked), capturing stdout, stderr and the exit code.
 */
final class Cli {
    record Result(int exit, String out, String err) {
        /** Output with {@code root} (a temp dir) replaced by {@code <root>}, for golden files. */
        String out(Path root) {
            return out.replace(root.toString(), "<root>");
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private Cli() {
    }

    static Result run(Object... args) {
        String[] a = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            a[i] = String.valueOf(args[i]);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cmd = CommandLines.oneShot(a);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(a);
        return new Result(exit, out.toString(), err.toString());
    }
}
