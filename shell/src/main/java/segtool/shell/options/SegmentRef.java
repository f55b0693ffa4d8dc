package segtool.shell.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.StringJoiner;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.layout.Targets;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.shell.ShellSession;

/**
 * A SEGMENT argument resolved to its partition and start offset. Accepted forms: a {@code .log} or {@code .index}
 * file; {@code <partition dir>/<start offset>}; and, in the shell with a partition open, a bare offset (the
 * segment starting there, else the one holding it: the last starting below it), e.g. a start offset
 * ({@code 4096} or {@code 00000000000000004096}).
 */
public record SegmentRef(PartitionPath partition, long start, Path log, Path index) {

    public String name() {
        return SegmentFiles.stem(start);
    }

    public static SegmentRef resolve(CommandSpec spec, Path arg, Long partitionId) throws IOException {
        SegmentRef ref = resolve(spec, arg);
        if (partitionId != null) {
            return new SegmentRef(ref.partition.withPartitionId(partitionId), ref.start, ref.log, ref.index);
        }
        return ref;
    }

    private static SegmentRef resolve(CommandSpec spec, Path arg) throws IOException {
        Path here = arg == null ? null : ShellSession.of(spec).relativeIfExists(arg.toString());
        if (here != null) {
            arg = here;
        }
        if (arg != null && ShellSession.isDump(arg)) {
            arg = ShellSession.onDisk(spec, arg);
        }
        if (arg == null) {
            Path open = ShellSession.onDisk(spec, ShellSession.of(spec).openPath());
            if (open != null && Files.isRegularFile(open)) {
                return resolve(spec, open);
            }
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'SEGMENT'"
                    + (open != null ? " (the open path is a partition; name one of its segments)" : ""));
        }
        String text = arg.toString();
        if (Files.isRegularFile(arg)) {
            String name = arg.getFileName().toString();
            String ext = SegmentFiles.extensionOf(name);
            Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(name));
            if (!(ext.equals("log") || ext.equals("index")) || start == null) {
                throw new Targets.NotATarget(arg + ": not a segment file (expected <start offset>.log or .index)");
            }
            return of(arg.toAbsolutePath().getParent(), start);
        }
        if (Files.isDirectory(arg)) {
            throw new Targets.NotATarget(arg + ": is a directory; name a segment: " + arg + "/<start offset>"
                    + startsHint(arg));
        }
        Long bare = U64.parse(text);
        if (bare != null && !text.contains("/")) {
            Path open = ShellSession.onDisk(spec, ShellSession.of(spec).openPath());
            if (open != null) {
                Path dir = Files.isRegularFile(open) ? open.toAbsolutePath().getParent() : open;
                return holding(spec, dir, bare);
            }
            throw new CommandLine.ParameterException(spec.commandLine(), "SEGMENT '" + text
                    + "' is a start offset; name the file (<partition>/" + SegmentFiles.stem(bare)
                    + ".log) or `open` the partition in the shell first");
        }
        Path parent = arg.toAbsolutePath().getParent();
        Long start = arg.getFileName() == null ? null : U64.parse(arg.getFileName().toString());
        if (start != null && parent != null && Files.isDirectory(parent)) {
            return of(parent, start);
        }
        if (Files.exists(arg, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new Targets.NotATarget(segtool.formats.io.RegularFile.refusal(arg));
        }
        throw Targets.unreachable(arg);
    }

    /**
     * The segment of {@code dir} that holds offset {@code offset}: the one starting there, else the last one
     * starting below it (by the partition's segment starts), said in one line on stderr. An offset below every
     * start names no segment.
     */
    private static SegmentRef holding(CommandSpec spec, Path dir, long offset) throws IOException {
        if (Files.exists(SegmentFiles.log(dir, offset)) || Files.exists(SegmentFiles.index(dir, offset))) {
            return of(dir, offset);
        }
        Long start = null;
        for (long s : PartitionFiles.starts(dir)) {
            if (U64.le(s, offset)) {
                start = s;
            }
        }
        if (start == null) {
            return of(dir, offset);
        }
        spec.commandLine().getErr().println("segtool: offset " + U64.str(offset) + " is in segment "
                + U64.str(start) + " (" + SegmentFiles.stem(start) + ".log, the last segment starting at or below "
                + "it)");
        spec.commandLine().getErr().flush();
        return of(dir, start);
    }

    private static SegmentRef of(Path dir, long start) throws IOException {
        Path log = SegmentFiles.log(dir, start);
        Path index = SegmentFiles.index(dir, start);
        if (!Files.exists(log) && !Files.exists(index)) {
            IOException unseen = segtool.formats.io.OsReason.statFailure(log);
            if (unseen != null && !(unseen instanceof java.nio.file.NoSuchFileException)) {
                throw Targets.unreachable(log);
            }
            throw new Targets.NotATarget(log + ": no such segment" + startsHint(dir));
        }
        return new SegmentRef(PartitionPath.of(dir), start, log, index);
    }

    private static String startsHint(Path dir) {
        try {
            List<Long> starts = PartitionFiles.starts(dir);
            if (starts.isEmpty()) {
                return " (the directory holds no .log files)";
            }
            StringJoiner j = new StringJoiner(", ");
            for (int i = 0; i < Math.min(8, starts.size()); i++) {
                j.add(U64.str(starts.get(i)));
            }
            return " (segments: " + j + (starts.size() > 8 ? ", ..." : "") + ")";
        } catch (IOException e) {
            return "";
        }
    }
}
