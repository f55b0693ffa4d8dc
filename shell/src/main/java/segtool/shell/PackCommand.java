package segtool.shell;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.archive.DumpWriter;
import segtool.analyzers.report.ScanJson;
import segtool.shell.options.OutputOptions;

/** {@code pack PATH -o dump.tar.lz4}: a crash dump of a partition or data directory, with a manifest. */
@Command(name = "pack", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Write a crash dump of a partition or data directory: a tar in an LZ4 frame (or a plain "
                + "tar when OUT ends in .tar), with a manifest of every file's size and XXH3-64; modes and times "
                + "are kept. Every read-only command opens the dump in place of the directory, and a path inside "
                + "it as DUMP::PATH.",
            "Symbolic links, devices and other special files are left out and listed in the manifest.",
            "Names are stored as their bytes on disk, whatever the locale. A name that is not UTF-8 (or holds a "
                + "backslash) is stored escaped: each such byte, and each %% and \\, as %%XX (ff 2e 6c 6f 67 is "
                + "%%FF.log; ~1, ~2 appended should that name be taken), and the manifest's escaped_names gives each "
                + "escaped entry's original bytes in hex, so names that differ only in such bytes stay distinct."})
public final class PackCommand implements Callable<Integer>, PlainCommand, Interrupts.Leaves {
    @Parameters(index = "0", paramLabel = "PATH", description = "Partition or data directory to pack.")
    Path source;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
            description = "Archive to write, e.g. dump.tar.lz4 (replaced atomically if it exists).")
    Path out;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** The dump is written to a temporary file beside OUT, removed on the way out, and renamed over OUT when whole. */
    @Override
    public String leftWhenInterrupted() {
        return out + " was not written (a file that was there is unchanged); nothing else changed";
    }

    @Override
    public Integer call() throws Exception {
        if (!Files.exists(source)) {
            throw segtool.analyzers.layout.Targets.unreachable(source);
        }
        if (!Files.isDirectory(source)) {
            throw new segtool.analyzers.layout.Targets.NotATarget(source + ": not a directory");
        }
        // a directory with no file anywhere below it would make a dump of nothing: refused before anything is
        // written (a directory of unrecognisable files is still packed, for whoever looks into it)
        try (java.util.stream.Stream<Path> files = Files.find(source, Integer.MAX_VALUE,
                (p, a) -> a.isRegularFile())) {
            if (files.findAny().isEmpty()) {
                throw new segtool.analyzers.layout.Targets.NotATarget(source + ": holds no files; nothing to pack");
            }
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        DumpWriter.PackResult result;
        try {
            result = DumpWriter.pack(source, out);
        } catch (java.io.IOException e) {
            throw writing(out, e);
        }
        long bytes = result.manifest().files().stream().mapToLong(f -> f.size()).sum();
        PrintWriter w = spec.commandLine().getOut();
        if (output.json) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("schema", "segtool.pack/1");
            o.put("archive", result.archive().toString());
            o.put("archive_bytes", result.archiveBytes());
            o.put("files", result.manifest().files().size());
            o.put("file_bytes", bytes);
            o.put("skipped", result.manifest().skipped().size());
            o.put("exit_code", ExitCodes.CLEAN);
            w.println(ScanJson.mapper().writeValueAsString(o));
        } else if (!output.quiet()) {
            w.printf("%s: %d files, %d bytes packed into %d bytes%s%n", result.archive(),
                    result.manifest().files().size(), bytes, result.archiveBytes(),
                    result.manifest().skipped().isEmpty() ? ""
                            : " (" + result.manifest().skipped().size() + " special files left out)");
        }
        w.flush();
        return ExitCodes.CLEAN;
    }

    /**
     * A write that failed with a bare OS reason ("No space left on device": Java's write(2) errors name no file)
     * named with the output it was writing; an error that names its file already is passed on as it is.
     */
    static java.io.IOException writing(Path out, java.io.IOException e) {
        String m = e.getMessage();
        if (e.getClass() == java.io.IOException.class && m != null && !m.contains(": ")) {
            return new java.io.IOException(out + ": cannot write: " + m, e);
        }
        return e;
    }
}
