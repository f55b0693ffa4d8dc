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
import segtool.analyzers.layout.DataDirJudge;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.recovery.Sweep;
import segtool.analyzers.repair.Companions;
import segtool.analyzers.repair.Manifest;
import segtool.analyzers.repair.Quarantine;
import segtool.analyzers.repair.QuarantineEntry;
import segtool.analyzers.report.ShellWords;
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
         * 0 nothing needs attention, 1 something does, 5 latent damage, 2 a partition is refused (or the server
         * refuses it or the node), 3 one cannot be read or its inputs decided, 64 the command line contradicts the
         * metadata; the most urgent wins ({@link ExitCode#combine}).
         */
        public int exitCode() {
            int worst = ExitCode.CLEAN;
            for (Finding f : findings) {
                worst = ExitCode.combine(worst, f.exitCode());
            }
            return worst;
        }
    }

    /**
     * How the next commands are spelled: {@code segtool} names the tool ({@code segtool}, or a path to it);
     * {@code verdict} holds the command line's options that change a verdict, repeated on every command that judges
     * ({@code " --durability=persisted"}), {@code records} those that change which records verify (for salvage);
     * {@code readOnly} when the partitions are a crash dump's extraction, which no repair may change.
     */
    public record Next(String segtool, String verdict, String records, boolean readOnly) {
        public static Next plain(String segtool) {
            return new Next(segtool, "", "", false);
        }
    }

    private final RecoveryOptions options;
    private final int threads;
    private final Next next;
    private final String segtool;

    /** Judges with {@code options} (each partition's checkpoint comes from its inputs) on {@code threads} cores. */
    public Doctor(RecoveryOptions options, int threads, Next next) {
        this.options = options.withCheckpoint(null);
        this.threads = threads;
        this.next = next;
        this.segtool = next.segtool();
    }

    /**
     * Examines {@code partitions}: each is judged as scan judges it ({@link DataDirJudge} with the inputs
     * {@link InputsResolver} reads for it under {@code cli}, the latent-damage check included), then what lies beside
     * it is looked at.
     */
    public Report examine(Path path, List<PartitionPath> partitions, InputsResolver.CommandLine cli)
            throws IOException, InterruptedException {
        List<DataDirJudge.WithInputs> judged = new DataDirJudge(options.withThreads(threads), threads)
                .judge(partitions, new InputsResolver(cli), false, true, DataDirJudge.Progress.NONE);
        // an interrupt during a read closes the channel and comes back as an I/O error in a report; the flag is still
        // set, and it means cancelled (Ctrl-C, SIGTERM), not unreadable
        if (Thread.currentThread().isInterrupted()) {
            throw new RecoveryEngine.Cancelled();
        }
        List<Finding> out = new ArrayList<>();
        Companions companions = new Companions();
        for (int i = 0; i < partitions.size(); i++) {
            out.addAll(partition(partitions.get(i), judged.get(i), companions));
        }
        return new Report(path, cli, partitions.size(), out);
    }

    private List<Finding> partition(PartitionPath p, DataDirJudge.WithInputs j, Companions companions)
            throws IOException {
        List<Finding> out = new ArrayList<>();
        Path dir = p.directory().toAbsolutePath().normalize();
        String q = ShellWords.quote(dir.toString());
        String mode = next.verdict();
        PartitionInputs in = j.inputs();
        PartitionReport r = j.report();
        // the parent is listed once for all partitions, not twice per partition (quadratic in a big data directory)
        boolean beside = companions.mayHave(dir);
        List<Path> fences = beside ? Salvager.fences(dir) : List.of();
        List<Path> quarantines = beside ? Quarantine.of(dir) : List.of();
        Salvager.Result survey = null;
        List<String> problems = new ArrayList<>();
        if (r != null && r.outcome() == PartitionReport.Outcome.REFUSED || !fences.isEmpty()) {
            try {
                survey = new Salvager(Salvager.Options.defaults("doctor")
                        .withMaxBatchBytes(options.maxBatchBytes())).survey(p, problems);
            } catch (IOException e) {
                survey = null;
                problems.add(e.getMessage());
            }
        }
        String salvageTo = ShellWords.quote("./salvage-s" + id(p.streamId()) + "-t" + id(p.topicId()) + "-p"
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
            verdict(r, in, dir, q, survey, salvageTo, out);
            latent(j.latent(), r, in, dir, q, out);
        }
        for (Path fence : fences) {
            out.add(fence(dir, fence, survey, q, salvageTo, mode));
        }
        for (Path qdir : quarantines) {
            Finding f = quarantine(dir, qdir, q, mode, r != null);
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    /** What a crash dump gets instead of a command that changes or copies files, or names them on disk. */
    private String readOnly() {
        return "# a crash dump is read-only: extract it and run " + segtool + " doctor on the copy (or on the node's "
                + "data directory itself) for the commands that repair, salvage or restore";
    }

    /** {@code command}, or, for a crash dump's extraction, why there is none. */
    private String onDisk(String command) {
        return next.readOnly() ? readOnly() : command;
    }

    /** The repair command, or, for a crash dump's extraction, why there is none. */
    private List<String> repair(String q, String mode, String apply) {
        return List.of(onDisk(segtool + " repair " + q + mode + apply));
    }

    /**
     * The findings of the partition's verdict: refused, unreadable, or what the next boot would change (the WAL's
     * open first, then recovery's pass C on each segment whose files it changes: an index re-installed identical to
     * the one on disk changes nothing, RECOVERY 7.2); then the sweep's deletions and naming warnings.
     */
    private void verdict(PartitionReport r, PartitionInputs in, Path dir, String q, Salvager.Result survey,
                         String salvageTo, List<Finding> out) throws IOException {
        String mode = next.verdict();
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
                List<String> cmds = new ArrayList<>();
                cmds.add(segtool + " explain " + q + mode);
                if (next.readOnly()) {
                    cmds.add(readOnly());
                } else {
                    cmds.add(segtool + " salvage " + q + " -o " + salvageTo + " --format ndjson" + next.records());
                    cmds.add(segtool + " repair " + q + mode);
                }
                out.add(new Finding(Finding.Kind.REFUSED_PARTITION, dir, dir, d, cmds));
            }
            case IO_ERROR -> {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("error", r.ioError());
                inputs(in, d);
                out.add(new Finding(Finding.Kind.UNREADABLE_PARTITION, dir, dir, d,
                        List.of(segtool + " scan " + q + mode + " --debug")));
            }
            default -> {
                // pass C's operations on the segments whose files it changes (the sweep's deletions are findings
                // of their own, below), or the WAL's open alone
                List<String> ops = new ArrayList<>();
                for (SegmentReport s : r.segments()) {
                    if (s.changesFiles()) {
                        for (PlannedOp op : s.operations()) {
                            ops.add(op.kind() + " " + op.path().getFileName());
                        }
                    }
                }
                if (!ops.isEmpty() || r.walOpenChangesFiles()) {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("operations", ops);
                    if (r.walOpenChangesFiles()) {
                        // the WAL's open changes the directory before segment recovery reads it (METADATA 6.7)
                        d.put("wal_open", in.wal().openActions());
                    }
                    inputs(in, d);
                    List<String> cmds = new ArrayList<>();
                    cmds.add(segtool + " explain " + q + mode);
                    if (ops.isEmpty()) {
                        // only the WAL's open changes files: the server does that at boot, and repair does not
                        cmds.add("# only the server's WAL open changes files here (at boot, before recovery); "
                                + "segtool does not do the WAL's work: nothing to repair");
                    } else {
                        cmds.addAll(repair(q, mode, " --apply"));
                    }
                    out.add(new Finding(Finding.Kind.RECOVERY_WOULD_CHANGE, dir, dir, d, cmds));
                }
            }
        }
        for (PlannedOp.Delete del : r.swept()) {
            out.add(new Finding(Finding.Kind.SCRATCH_FILE, dir, del.path().toAbsolutePath().normalize(),
                    details("reason", del.reason(), "bytes", size(del.path())),
                    repair(q, mode, " --apply   # the sweep quarantines it, as the next boot would delete it")));
        }
        for (String warning : r.warnings()) {
            // the sweep's naming warnings (RECOVERY 3, 11.2): a .log the server reads under another name, or not;
            // a segment file that is a symlink to nothing
            out.add(new Finding(Sweep.danglingLink(warning) ? Finding.Kind.DANGLING_SYMLINK
                    : Finding.Kind.NON_CANONICAL_NAME, dir, dir, details("warning", warning),
                    List.of(segtool + " segments " + q)));
        }
    }

    /**
     * Latent damage (RECOVERY 11.1), as scan reports it: bytes of a log boot does not read in durable mode whose
     * records fail verification; the verdict stands, readers will fail there. Exit 5 when it is the worst finding.
     */
    private void latent(LatentDamage.Report l, PartitionReport r, PartitionInputs in, Path dir, String q,
                        List<Finding> out) {
        if (l == null || !l.damaged() || r.outcome() == PartitionReport.Outcome.IO_ERROR) {
            return;
        }
        List<Map<String, Object>> stretches = new ArrayList<>();
        for (LatentDamage.Segment s : l.segments()) {
            for (LatentDamage.Finding f : s.findings()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("segment_start_offset", s.start());
                one.put("from", f.from());
                one.put("to", f.to());
                if (f.hasOffsets()) {
                    one.put("offsets", U64.str(f.firstOffset()) + ".." + U64.str(f.lastOffset()));
                }
                one.put("check", f.check());
                stretches.add(one);
            }
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("stretches", stretches);
        inputs(in, d);
        out.add(new Finding(Finding.Kind.LATENT_DAMAGE, dir, dir, d, List.of(segtool + " scan " + q + next.verdict(),
                segtool + " explain " + q + next.verdict())));
    }

    /**
     * The inputs the verdict was reached with, as scan reports them: the durability and where it came from, and the
     * WAL checkpoint (as {@code --wal-checkpoint} spells it, null when none) and where it came from.
     */
    private static void inputs(PartitionInputs in, Map<String, Object> d) {
        d.put("durability", in.durability().value());
        d.put("durability_from", in.durability().from());
        Checkpoint c = in.wal().checkpoint();
        d.put("checkpoint", c == null ? null : c.spelled());
        d.put("checkpoint_from", in.wal().source());
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
            next.add(onDisk(segtool + " salvage " + q + " -o " + salvageTo + " --format ndjson"
                    + this.next.records()));
            next.add(segtool + " scan " + q + mode);
        } else {
            d.put("readmit", "nothing to re-admit: no record in it verifies (the server fenced bytes that held no "
                    + "message); keep it with your backups or delete it");
            next.add(onDisk("ls -l " + ShellWords.quote(fence.toString())));
        }
        return new Finding(Finding.Kind.FENCE, dir, fence.toAbsolutePath().normalize(), d, next);
    }

    /**
     * A quarantine beside the partition. {@code judged}: the partition has a verdict, so repair can run on it (with
     * none, the server refuses the node or the partition, or the inputs are undecided, and repair refuses too: only
     * restore is offered).
     */
    private Finding quarantine(Path dir, Path qdir, String q, String mode, boolean judged) {
        Path abs = qdir.toAbsolutePath().normalize();
        String qq = ShellWords.quote(abs.toString());
        if (!Quarantine.hasManifest(abs)) {
            return new Finding(Finding.Kind.QUARANTINE, dir, abs, details("state", "uncommitted",
                    "meaning", "an --apply stopped while copying, before it changed anything"),
                    judged ? repair(q, mode, " --apply   # discards it and repairs afresh")
                            : List.of(onDisk("ls -l " + qq + "   # nothing was changed; repair refuses this "
                            + "partition until its inputs give a verdict")));
        }
        Quarantine quarantine;
        try {
            quarantine = Quarantine.open(abs);
        } catch (IOException e) {
            return new Finding(Finding.Kind.DAMAGED_QUARANTINE, dir, abs, details("error", String.valueOf(
                    e.getMessage())), List.of(onDisk("ls -l " + qq)));
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
        List<String> next;
        int exit = Finding.Kind.QUARANTINE.exitCode();
        if (Manifest.RESTORED.equals(m.state())) {
            return null;   // undone: nothing pending; the directory is a record of what happened
        } else if (quarantine.unfinished()) {
            d.put("meaning", "a repair stopped part way: the partition plus this directory hold every original byte");
            // repair finishes the journaled plan whatever the mode (it notes a mode other than the plan's); the
            // command line's options are repeated, never the manifest's, which may contradict the metadata now
            List<String> both = new ArrayList<>();
            if (judged) {
                both.addAll(repair(q, mode, " --apply   # finishes it"));
            }
            both.add(onDisk(segtool + " restore " + qq + " --apply   # " + (judged ? "or undoes it" : "undoes it (repair "
                    + "refuses this partition until its inputs give a verdict)")));
            next = both;
        } else {
            d.put("meaning", "a finished repair; these bytes left the partition and can be put back");
            // only the dry run: --apply would undo the repair, which is not a next step but a decision
            next = List.of(onDisk(segtool + " restore " + qq + "   # dry run: what restore would put back, if the "
                    + "repair is to be undone; keep the directory until the node is known good"));
            // reported (it is the handle for undo) but nothing is pending: a runbook's "repair --apply, then doctor"
            // must see 0, not be told to delete the undo to get it
            exit = ExitCode.CLEAN;
        }
        return new Finding(Finding.Kind.QUARANTINE, dir, abs, d, next, exit);
    }

    /** Details in the order given (the text and the JSON show them so, run after run). */
    private static Map<String, Object> details(Object... keysAndValues) {
        Map<String, Object> d = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            d.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return d;
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

}
