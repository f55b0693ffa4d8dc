package segtool.analyzers.archive;

import java.nio.file.Path;
import segtool.formats.io.TempDirectory;

/**
 * The child JVM of {@link HostileEnvironmentTest}: opens a dump (under {@code args[1]}, or under the default temp
 * directory when absent), prints {@code OPEN <extraction directory>} and {@code TMP <TempDirectory.get()>}, then
 * holds the dump open until killed (or closes it and exits with {@code args[2] == "exit"}).
 */
public final class DumpHoldChild {
    private DumpHoldChild() {
    }

    public static void main(String[] args) throws Exception {
        Path archive = Path.of(args[0]);
        OpenedDump dump = args.length > 1 && !args[1].equals("-")
                ? DumpReader.open(archive, Limits.DEFAULT, Path.of(args[1])) : DumpReader.open(archive);
        System.out.println("OPEN " + dump.extractionDirectory());
        System.out.println("TMP " + TempDirectory.get());
        System.out.flush();
        if (args.length > 2 && args[2].equals("exit")) {
            dump.close();
            return;
        }
        Thread.sleep(120_000);
    }
}
