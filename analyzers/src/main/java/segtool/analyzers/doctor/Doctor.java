package segtool.analyzers.doctor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.repair.Companions;
import segtool.analyzers.repair.Manifest;
import segtool.analyzers.repair.Quarantine;
import segtool.analyzers.repair.QuarantineEntry;
import segtool.analyzers.salvage.OffsetRanges;
import segtool.analyzers.salvage.Salvager;
import segtool.analyzers.salvage.Source;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * {@code doctor}: one pass over the partitions of a data directory (or one partition) collecting everything that
 * needs an operator: refused and unreadable partitions, partitions without a verdict (their inputs), partitions boot
 * would change (the WAL's open included), fence directories, pending quarantines, scratch and orphan files,
 * non-canonical segment names; each with the exact next command. Each partition is judged as {@code scan} judges
 * it: with the inputs {@link InputsResolver} reads for it (its topic's durability, its WAL checkpoint, the directory
 * as the WAL's open leaves it), the command line's values only where those allow. Reads only.
 */
public final class Doctor {
    /**
     * The report: the partitions examined and the findings, partition by partition, worst kind first within one.
     * {@code cli} is what the command line said about the inputs (each partition's own are in its findings).
     */
    public record Report(Path path, InputsResolver.CommandLine cli, int partitions, List<Finding> findings) {
        /**
         * 0 nothing needs attention, 1 something does, 2 a partition is refused (or the server refuses it or the
         * node), 3 one cannot be read or its inputs decided, 64 the command line contradicts the metadata.
         */
        public int exitCode() {
            int worst = ExitCode.CLEAN;
            for (Finding f : findings) {
                worst = ExitCode.combine(worst, f.exitCode());
            }
            return worst;
        }
    }

    private final RecoveryEngine engine;
    private final String segtool;

    /** {@code segtool} is how to name the tool in the next commands ({@code segtool}, or a path to it). */
    public Doctor(RecoveryEngine engine, String segtool) {
        this.engine = engine;
        this.segtool = segtool;
    }

    public Report examine(Path path, List<PartitionPath> partitions, InputsResolver.CommandLine cli)
            throws IOException {
        List<Finding> out = new ArrayList<>();
        String mode = flags(cli);
        Companions companions = new Companions();
        InputsResolver inputs = new InputsResolver(cli);
        for (PartitionPath p : partitions) {
            out.addAll(partition(p, inputs.resolve(p), mode, companions));
        }
        return new Report(path, cli, partitions.size(), out);
    }

    /** The command line's input options, repeated on every next command so that it judges as doctor did. */
    static String flags(InputsResolver.CommandLine cli) {
        StringBuilder b = new StringBuilder();
        if (cli.durable() != null) {
            b.append(" --durability=").append(cli.durable() ? "persisted" : "replicated");
        }
        if (cli.override()) {
            b.append(" --override-durability");
        }
        if (cli.checkpoint() != null) {
            b.append(" --wal-checkpoint=").append(checkpoint(cli.checkpoint()));
        }
        return b.toString();
    }

    private List<Finding> partition(PartitionPath p, PartitionInputs in, String mode, Companions companions)
            throws IOException {
        List<Finding> out = new ArrayList<>();
        Path dir = p.directory().toAbsolutePath().normalize();
        String q = quote(dir.toString());
        PartitionReport r = null;
        if (in.judgeable()) {
            // the engine judges the directory as the WAL's open leaves it (the checkpoint's view), in the topic's mode
            r = new RecoveryEngine(engine.options().withCheckpoint(in.wal().checkpoint()))
                    .judge(p, in.durability().durable());
        }
        // the parent is listed once for all partitions, not twice per partition (quadratic in a big data directory)
        boolean beside = companions.mayHave(dir);
        List<Path> fences = beside ? Salvager.fences(dir) : List.of();
        List<Path> quarantines = beside ? Quarantine.of(dir) : List.of();
        Salvager.Result survey = null;
        List<String> problems = new ArrayList<>();
        if (r != null && r.outcome() == PartitionReport.Outcome.REFUSED || !fences.isEmpty()) {
            try {
                survey = new Salvager(Salvager.Options.defaults("doctor")
                        .withMaxBatchBytes(engine.options().maxBatchBytes())).survey(p, problems);
            } catch (IOException e) {
                survey = null;
                problems.add(e.getMessage());
            }
        }
        String salvageTo = quote("./salvage-s" + id(p.streamId()) + "-t" + id(p.topicId()) + "-p"
                + id(p.partitionId()));
        if (r == null) {
            // no verdict, as scan gives none: the server refuses the node or this partition before segment
            // recovery, or segtool cannot decide its inputs; what lies beside it is still reported
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("refusal", in.refusalJson());
            d.put("reason", in.refusalLine());
            out.add(new Finding(Finding.Kind.NO_VERDICT, dir, dir, d, List.of(segtool + " scan " + q + mode),
                    ExitCode.of(in.refusal())));
        } else {
            verdict(r, in, dir, q, mode, survey, salvageTo, out);
        }
        for (Path fence : fences) {
            out.add(fence(dir, fence, survey, q, salvageTo, mode));
        }
        for (Path qdir : quarantines) {
            Finding f = quarantine(dir, qdir, q, mode);
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    /** The findings of the partition's verdict: refused, unreadable, or what the next boot would change. */
    private void verdict(PartitionReport r, PartitionInputs in, Path dir, String q, String mode,
                         Salvager.Result survey, String salvageTo, List<Finding> out) throws IOException {
        switch (r.outcome()) {
            case REFUSED -> {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("variant", r.refusal().variant().name());
                d.put("segment_start_offset", r.refusal().segmentStart());
                d.put("fields", new LinkedHashMap<>(r.refusal().fields()));
                if (survey != null) {
                    d.put("salvageable_offsets", ranges(survey.archived()));
                    d.put("lost_offsets", ranges(survey.lost()));
                }
                inputs(in, d);
                out.add(new Finding(Finding.Kind.REFUSED_PARTITION, dir, dir, d, List.of(
                        segtool + " explain " + q + mode,
                        segtool + " salvage " + q + " -o " + salvageTo + " --format ndjson",
                        segtool + " repair " + q + mode)));
            }
            case IO_ERROR -> {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("error", r.ioError());
                inputs(in, d);
                out.add(new Finding(Finding.Kind.UNREADABLE_PARTITION, dir, dir, d,
                        List.of(segtool + " scan " + q + mode + " --debug")));
            }
            default -> {
                List<String> ops = new ArrayList<>();
                for (PlannedOp op : r.operations()) {
                    if (!(op instanceof PlannedOp.Delete)) {
                        ops.add(op.kind() + " " + op.path().getFileName());
                    }
                }
                // the WAL's open changes the directory before segment recovery reads it (METADATA 6.7)
                List<String> walOpen = in.wal().openChangesDirectory() ? in.wal().openActions() : List.of();
                if (!ops.isEmpty() || !walOpen.isEmpty()) {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("operations", ops);
                    if (!walOpen.isEmpty()) {
                        d.put("wal_open", walOpen);
                    }
                    inputs(in, d);
                    out.add(new Finding(Finding.Kind.RECOVERY_WOULD_CHANGE, dir, dir, d,
                            List.of(segtool + " explain " + q + mode, segtool + " repair " + q + mode + " --apply")));
                }
            }
        }
        for (PlannedOp.Delete del : r.swept()) {
            out.add(new Finding(Finding.Kind.SCRATCH_FILE, dir, del.path().toAbsolutePath().normalize(),
                    Map.of("reason", del.reason(), "bytes", size(del.path())),
                    List.of(segtool + " repair " + q + mode + " --apply   # the sweep quarantines it, as the next "
                            + "boot would delete it")));
        }
    }

    /**
     * The inputs the verdict was reached with, as scan reports them: the durability and where it came from, and the
     * WAL checkpoint (as {@code --wal-checkpoint} spells it, null when none) and where it came from.
     */
    private static void inputs(PartitionInputs in, Map<String, Object> d) {
        d.put("durability", in.durability().value());
        d.put("durability_from", in.durability().from());
        Checkpoint c = in.wal().checkpoint();
        d.put("checkpoint", c == null ? null : checkpoint(c));
        d.put("checkpoint_from", in.wal().source());
    }

    private static String checkpoint(Checkpoint c) {
        return Long.toUnsignedString(c.startOffset()) + ":" + Long.toUnsignedString(c.length()) + ":"
                + Long.toUnsignedString(c.nextOffset());
    }

    private Finding fence(Path dir, Path fence, Salvager.Result survey, String q, String salvageTo, String mode)
            throws IOException {
        Map<String, Object> d = new LinkedHashMap<>();
        List<Map<String, Object>> files = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(fence)) {
            for (Path f : s) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("name", f.getFileName().toString());
                one.put("bytes", size(f));
                files.add(one);
            }
        }
        files.sort((a, b) -> ((String) a.get("name")).compareTo((String) b.get("name")));
        BasicFileAttributes attrs = Files.readAttributes(fence, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        d.put("fenced_at", attrs.lastModifiedTime().toInstant().toString());
        d.put("files", files);
        OffsetRanges offsets = new OffsetRanges();
        boolean verifies = true;
        long records = 0;
        int n = SegmentFiles.fenceNumber(fence.getFileName().toString());
        if (survey != null) {
            for (Salvager.SourceResult s : survey.sources()) {
                if (s.source().kind() == Source.Kind.FENCE && s.source().fenceNumber() == n) {
                    offsets.addAll(s.offsets());
                    records += s.batches();
                    verifies &= s.intact();
                }
            }
        }
        d.put("records_that_verify", records);
        d.put("offsets", ranges(offsets.list()));
        d.put("all_bytes_verify", verifies && records > 0);
        List<String> next = new ArrayList<>();
        if (records > 0) {
            d.put("readmit", "its records are in no live segment of the partition's boot chain; salvage them and "
                    + "replay messages.ndjson through a producer, or, once the live chain accepts (scan exit 0 or "
                    + "1) and these offsets continue it, move the files back in place of the empty seeded ones "
                    + "with the server stopped and check with scan");
            next.add(segtool + " salvage " + q + " -o " + salvageTo + " --format ndjson");
            next.add(segtool + " scan " + q + mode);
        } else {
            d.put("readmit", "nothing to re-admit: no record in it verifies (the server fenced bytes that held no "
                    + "message); keep it with your backups or delete it");
            next.add("ls -l " + quote(fence.toString()));
        }
        return new Finding(Finding.Kind.FENCE, dir, fence.toAbsolutePath().normalize(), d, next);
    }

    private Finding quarantine(Path dir, Path qdir, String q, String mode) {
        Path abs = qdir.toAbsolutePath().normalize();
        String qq = quote(abs.toString());
        if (!Quarantine.hasManifest(abs)) {
            return new Finding(Finding.Kind.QUARANTINE, dir, abs, Map.of("state", "uncommitted",
                    "meaning", "an --apply stopped while copying, before it changed anything"),
                    List.of(segtool + " repair " + q + mode + " --apply   # discards it and repairs afresh"));
        }
        Quarantine quarantine;
        try {
            quarantine = Quarantine.open(abs);
        } catch (IOException e) {
            return new Finding(Finding.Kind.DAMAGED_QUARANTINE, dir, abs, Map.of("error", String.valueOf(
                    e.getMessage())), List.of("ls -l " + qq));
        }
        Manifest m = quarantine.manifest();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("state", m.state());
        d.put("command", m.command());
        d.put("created", m.created());
        d.put("enforce_fsync", m.enforceFsync());
        long bytes = 0;
        for (QuarantineEntry e : m.entries()) {
            bytes = U64.addSat(bytes, e.length());
        }
        d.put("copied_ranges", (long) m.entries().size());
        d.put("copied_bytes", bytes);
        String kept = m.enforceFsync() ? " --enforce-fsync=true" : "";
        List<String> next;
        if (Manifest.RESTORED.equals(m.state())) {
            return null;   // undone: nothing pending; the directory is a record of what happened
        } else if (quarantine.unfinished()) {
            d.put("meaning", "a repair stopped part way: the partition plus this directory hold every original byte");
            next = List.of(segtool + " repair " + q + kept + " --apply   # finishes it",
                    segtool + " restore " + qq + " --apply   # or undoes it");
        } else {
            d.put("meaning", "a finished repair; these bytes left the partition and can be put back");
            next = List.of(segtool + " restore " + qq + "   # dry run: what restore would put back",
                    segtool + " restore " + qq + " --apply");
        }
        return new Finding(Finding.Kind.QUARANTINE, dir, abs, d, next);
    }

    private static List<String> ranges(OffsetRanges r) {
        return ranges(r.list());
    }

    private static List<String> ranges(List<OffsetRanges.Range> r) {
        return r.stream().map(OffsetRanges.Range::toString).toList();
    }

    private static String id(long v) {
        return v < 0 ? "x" : U64.str(v);
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    /** A path quoted for a POSIX shell when it needs it. */
    static String quote(String s) {
        if (s.matches("[A-Za-z0-9_./:=@%+,-]+")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
