package segtool.shell;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The training run of the launcher's class-data archive (or AOT cache): in one JVM, every command the archive should
 * cover, so that what any short command loads comes from it and not from the jar. It runs each subcommand's help,
 * the usage, the version, a usage error, and every command that only reads on the bundled samples, in text and JSON,
 * with all output discarded. Given a scratch directory (the launcher passes one inside its cache directory and
 * removes it), it also runs the commands that write a new file there: salvage, pack, collect, plan, and a scan of the
 * crash dump it packed. It never changes the samples: no --apply, no restore.
 * <pre>java -XX:ArchiveClassesAtExit=segtool.jsa -cp segtool.jar segtool.shell.Train samples/gallery [SCRATCH]</pre>
 */
public final class Train {
    private Train() {
    }

    public static void main(String[] args) {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true);
        System.setOut(quiet);
        System.setErr(quiet);
        Path gallery = args.length > 0 ? Path.of(args[0]) : null;
        Path scratch = args.length > 1 ? Path.of(args[1]) : null;
        if (scratch != null) {
            try {
                Files.createDirectories(scratch);
            } catch (java.io.IOException e) {
                scratch = null;
            }
        }
        for (String[] line : lines(gallery, scratch)) {
            try {
                CommandLine cmd = Main.oneShot(line);
                cmd.setOut(new PrintWriter(quiet, true));
                cmd.setErr(new PrintWriter(quiet, true));
                cmd.execute(line);
            } catch (RuntimeException | Error e) {
                // training only: a command that fails still loaded what it loads
            }
        }
        System.exit(0);
    }

    /**
     * The command lines to run: those on the samples only when {@code gallery} holds them, those that write only with
     * a {@code scratch} directory (null for none), and then only into it.
     */
    static List<String[]> lines(Path gallery, Path scratch) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"--version"});
        lines.add(new String[] {"--help"});
        lines.add(new String[] {"help"});
        lines.add(new String[] {"scan", "--no-such-option"});
        lines.add(new String[] {"scna"});
        for (String name : Segtool.NAMES) {
            lines.add(new String[] {name, "--help"});
        }
        lines.add(new String[] {"generate-completion"});
        lines.add(new String[] {"sample", "--list"});
        if (gallery == null) {
            return lines;
        }
        for (String shape : new String[] {"healthy", "torn-tail"}) {
            Path dir = gallery.resolve(shape);
            Path part = dir.resolve("streams/1/topics/1/partitions/1");
            Path log = part.resolve("00000000000000000000.log");
            if (!Files.isRegularFile(log)) {
                continue;
            }
            String d = dir.toString();
            String p = part.toString();
            String l = log.toString();
            for (String json : new String[] {"--no-color", "--json"}) {
                lines.add(new String[] {"scan", json, d});
                lines.add(new String[] {"scan", "--quiet", d});
                lines.add(new String[] {"explain", json, d});
                lines.add(new String[] {"explain", json, "--durability=persisted", p});
                lines.add(new String[] {"segments", json, d});
                lines.add(new String[] {"index", json, l});
                lines.add(new String[] {"batches", json, l});
                lines.add(new String[] {"messages", json, l});
                lines.add(new String[] {"stats", json, p});
                lines.add(new String[] {"find", json, "--offset=1", p});
                lines.add(new String[] {"hexdump", json, l, "0", "64"});
                lines.add(new String[] {"doctor", json, d});
                lines.add(new String[] {"repair", json, p});
                lines.add(new String[] {"rebuild-index", json, p});
                lines.add(new String[] {"compare", json, d, d});
            }
            if (scratch != null) {
                String out = scratch.resolve(shape).toString();
                lines.add(new String[] {"salvage", "-o", out + ".salvage", p});
                lines.add(new String[] {"pack", "-o", out + ".tar.lz4", d});
                lines.add(new String[] {"scan", "--json", out + ".tar.lz4"});
                lines.add(new String[] {"collect", "--node=" + shape, "-o", out + ".manifest", d});
            }
        }
        if (scratch != null) {
            lines.add(new String[] {"plan", "-o", scratch.resolve("plan.json").toString(),
                scratch.resolve("healthy.manifest").toString(), scratch.resolve("torn-tail.manifest").toString()});
        }
        lines.add(new String[] {"scan", gallery.resolve("no-such-partition").toString()});
        return lines;
    }
}
