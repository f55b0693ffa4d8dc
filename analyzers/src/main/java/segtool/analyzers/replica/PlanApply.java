package segtool.analyzers.replica;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import segtool.analyzers.archive.FileRange;
import segtool.analyzers.archive.FileXxh3;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.Identity;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.Hashing;
import segtool.analyzers.repair.PartitionLock;
import segtool.analyzers.repair.Quarantine;
import segtool.analyzers.repair.RepairOp;
import segtool.analyzers.repair.RepairPlan;
import segtool.analyzers.repair.ServerGuard;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * Carries out one node's share of a {@code segtool.plan/2}: per partition it takes from the donor, re-checks every
 * precondition (no server uses the data, the partition's repair lock, every local segment's log still the length
 * and XXH3-64 collected, the donor's files in the donor directory the length and XXH3-64 the donor's manifest recorded), and
 * only then copies, through the repair machinery: the old files quarantined whole, the new ones written into the
 * quarantine's {@code new/}, staged and renamed into place by the journaled {@link Applier} (crash-safe, resumable,
 * restorable with {@code restore}). A precondition that no longer holds refuses the partition; nothing changes.
 *
 * <p>A new segment file is a list of ranges (the replica's own prefix, then the donor's bytes) that the applier
 * streams into place through a bounded buffer, so memory does not grow with the segment.
 */
public final class PlanApply {

    /**
     * What happened to one partition; {@code status}: applied, planned, nothing, refused, in_use, io_error, usage (the
     * command line contradicts the metadata: exit 64, as in {@code scan}).
     */
    public record Outcome(PartitionKey key, Path partition, String status, List<String> details,
                          PartitionManifest.Verdict after, Path quarantine) {
        public int exitCode() {
            switch (status) {
                case "applied":
                    return after == null ? ExitCode.CLEAN : after.exitCode();
                case "planned":
                    return ExitCode.CHANGES;
                case "refused":
                    return ExitCode.REFUSED;
                case "in_use":
                    return ExitCode.IN_USE;
                case "io_error":
                    return ExitCode.IO_ERROR;
                case "usage":
                    return ExitCode.USAGE;
                default:
                    return ExitCode.CLEAN;
            }
        }
    }

    private final Function<Path, ServerGuard.Report> guard;
    private final Applier applier;
    private final RecoveryOptions options;

    public PlanApply(Function<Path, ServerGuard.Report> guard, Applier applier, RecoveryOptions options) {
        this.guard = guard;
        this.applier = applier;
        this.options = options;
    }

    /**
     * One entry of the plan (this node's): checked, and applied when {@code apply}. The local partition is judged
     * with the inputs {@code inputs} resolves for it (its topic's durability, its frontier's checkpoint), and must
     * still be the incarnation the plan names.
     */
    public Outcome run(PlanFile.Entry e, Path donorDir, InputsResolver inputs, boolean apply, boolean force) {
        return run(e, e.path() == null ? null : Path.of(e.path()), donorDir, inputs, apply, force);
    }

    /** As above, with the entry's partition directory {@code dir} as this process reaches it (null: none). */
    public Outcome run(PlanFile.Entry e, Path dir, Path donorDir, InputsResolver inputs, boolean apply,
                       boolean force) {
        List<String> details = new ArrayList<>();
        if (!"take".equals(e.action()) || e.transfers().isEmpty()) {
            details.add("action " + e.action() + ": nothing to copy" + ("repair".equals(e.action())
                    ? "; run `segtool repair --apply` for the local changes boot would make" : ""));
            return new Outcome(e.key(), dir, "nothing", details, null, null);
        }
        if (dir == null) {
            details.add(e.key().label() + ": the plan records no directory for this node (the partition was "
                    + "absent when collected); create it as the server would, then collect and plan again");
            return new Outcome(e.key(), null, "refused", details, null, null);
        }
        List<Path> applied = new ArrayList<>(1);
        try {
            PartitionPath partition = PartitionPath.of(dir);
            if (!force) {
                ServerGuard.Report busy = guard.apply(ServerGuard.scopeOf(partition));
                if (busy.busy()) {
                    details.addAll(busy.reasons());
                    return new Outcome(e.key(), dir, "in_use", details, null, null);
                }
            }
            PartitionInputs local = inputs.resolve(partition);
            if (!local.judgeable()) {
                // the same codes as every verdict command (ExitCode.of): inputs segtool cannot decide or read are 3,
                // a --durability that contradicts the metadata is 64, the server's own refusal 2
                details.add(local.refusalLine());
                int code = ExitCode.of(local.refusal());
                return new Outcome(e.key(), dir, code == ExitCode.IO_ERROR ? "io_error" : code == ExitCode.USAGE
                        ? "usage" : "refused", details, null, null);
            }
            if (local.wal().openChangesDirectory()) {
                // the plan's digests are of the files as they are; the server's WAL open changes some first
                details.add(dir + ": the server's WAL open changes this directory before segment recovery ("
                        + String.join("; ", changes(local)) + "; METADATA 6.7), so a plan collected from its files "
                        + "as they are does not apply to what recovery reads; segtool changes nothing here: let the "
                        + "WAL open run first (start the server once), then collect and plan again");
                return new Outcome(e.key(), dir, "refused", details, null, null);
            }
            Identity here = local.identity() == null ? Identity.UNKNOWN : local.identity();
            // every part the plan names must still be known here and the same: a part now unknown is not proof
            boolean revisionMoved = e.key().createdRevision() != null
                    && !e.key().createdRevision().equals(here.createdRevision());
            boolean generationMoved = e.key().purgeGeneration() != null
                    && !e.key().purgeGeneration().equals(here.purgeGeneration());
            if (revisionMoved || generationMoved) {
                details.add(dir + ": this partition is incarnation created_revision " + known(here.createdRevision())
                        + ", purge_generation " + known(here.purgeGeneration()) + " (from " + here.from()
                        + "), the plan's is " + e.key().label() + ": the partition was recreated or purged after "
                        + "collect; collect and plan again");
                return new Outcome(e.key(), dir, "refused", details, null, null);
            }
            boolean durable = local.durability().durable();
            Path donor = donorPartition(donorDir, e.key());
            List<String> problems = preconditions(e, dir, donor);
            if (!problems.isEmpty()) {
                details.addAll(problems);
                return new Outcome(e.key(), dir, "refused", details, null, null);
            }
            RepairPlan plan = plan(e, partition, donor, durable);
            for (ReplicaComparison.Transfer t : e.transfers()) {
                details.add("segment " + U64.str(t.segment()) + ": " + (t.to() == 0 && t.from() == 0
                        ? "removed (" + t.reason() + ")"
                        : "bytes [" + U64.str(t.from()) + ", " + U64.str(t.to()) + ") from the donor (" + t.reason()
                        + ")"));
            }
            if (!apply) {
                return new Outcome(e.key(), dir, "planned", details, null, null);
            }
            Quarantine q;
            try (PartitionLock lock = PartitionLock.acquire(dir)) {
                List<String> again = preconditions(e, dir, donor);
                if (!again.isEmpty()) {
                    details.addAll(again);
                    return new Outcome(e.key(), dir, "refused", details, null, null);
                }
                q = applier.apply(plan, () -> {
                    if (!force && guard.apply(ServerGuard.scopeOf(partition)).busy()) {
                        throw new IOException(dir + ": a process started using the data; nothing changed");
                    }
                });
            }
            applied.add(q.directory());
            PartitionReport after = new RecoveryEngine(options.withCheckpoint(local.wal().checkpoint()))
                    .judge(partition, durable);
            return new Outcome(e.key(), dir, "applied", details, EngineView.verdict(after), q.directory());
        } catch (PartitionLock.Held held) {
            details.add(held.getMessage());
            return new Outcome(e.key(), dir, "in_use", details, null, null);
        } catch (IOException | RuntimeException x) {
            if (RecoveryEngine.Cancelled.isInterrupt(x)) {
                throw segtool.analyzers.repair.Interrupted.of(dir, applied, x);
            }
            details.add(x.getMessage() == null ? x.toString() : x.getMessage());
            return new Outcome(e.key(), dir, "io_error", details, null, null);
        }
    }

    private static List<String> changes(PartitionInputs in) {
        List<String> out = new ArrayList<>();
        in.wal().openSteps().stream().filter(x -> x.changes()).forEach(x -> out.add(x.text()));
        return out;
    }

    /** The donor's partition directory: {@code DIR/streams/s/topics/t/partitions/p}, or DIR itself. */
    static Path donorPartition(Path donorDir, PartitionKey key) {
        Path nested = donorDir.resolve(PartitionPath.STREAMS).resolve(U64.str(key.stream()))
                .resolve(PartitionPath.TOPICS).resolve(U64.str(key.topic())).resolve(PartitionPath.PARTITIONS)
                .resolve(U64.str(key.partition()));
        return Files.isDirectory(nested) ? nested : donorDir;
    }

    /** Every precondition that no longer holds, one line each; empty when all hold. */
    static List<String> preconditions(PlanFile.Entry e, Path dir, Path donor) throws IOException {
        List<String> out = new ArrayList<>();
        java.util.Set<Long> checked = new java.util.HashSet<>();
        for (ReplicaComparison.SegmentDigest s : e.segments()) {
            Path log = SegmentFiles.log(dir, s.start());
            String why = differs(log, s.length(), s.xxh3());
            checked.add(s.start());
            if (why != null) {
                out.add(log + ": " + why + " since it was collected; the plan no longer applies (collect and "
                        + "plan again)");
            }
        }
        for (Path q : Quarantine.of(dir)) {
            // a journaled plan stopped after its commit point: starting another over it would interleave the two
            if (!Files.isSymbolicLink(q) && Quarantine.hasManifest(q) && Quarantine.open(q).unfinished()) {
                out.add(q + ": an interrupted run left this journaled plan unfinished (run `segtool repair --apply` "
                        + "first: it finishes that plan)");
            }
        }
        if (!out.isEmpty()) {
            return out;   // what else differs follows from the unfinished plan
        }
        for (ReplicaComparison.Transfer t : e.transfers()) {
            Path log = SegmentFiles.log(dir, t.segment());
            if (checked.contains(t.segment())) {
                // checked above with every local segment
            } else if (t.localPresent()) {
                String why = differs(log, t.localLength(), t.localXxh3());
                if (why != null) {
                    out.add(log + ": " + why + " since it was collected; the plan no longer applies (collect and "
                            + "plan again)");
                }
            } else if (Files.exists(log, LinkOption.NOFOLLOW_LINKS)) {
                out.add(log + ": exists, but was absent when collected; the plan no longer applies");
            }
            for (Path staging : new Path[]{staging(dir, t.segment(), SegmentFiles.LOG),
                staging(dir, t.segment(), SegmentFiles.INDEX)}) {
                if (Files.exists(staging, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(staging + ": a scratch file is in the way (run `segtool repair --apply` first)");
                }
            }
            if (t.to() == 0 && t.from() == 0) {
                continue;
            }
            Path dlog = SegmentFiles.log(donor, t.segment());
            String why = differs(dlog, t.donorLength(), t.donorXxh3());
            if (why != null) {
                out.add(dlog + ": the donor's log " + why + " since the donor's manifest was collected (is "
                        + "--donor-dir " + "a copy of the donor's partition?)");
            }
            Path dindex = SegmentFiles.index(donor, t.segment());
            long dil = Files.isRegularFile(dindex, LinkOption.NOFOLLOW_LINKS) ? Files.size(dindex) : -1;
            if (dil != t.donorIndexLength() && !(dil < 0 && t.donorIndexLength() == 0)) {
                out.add(dindex + ": the donor's index is " + (dil < 0 ? "missing" : dil + " bytes") + ", "
                        + t.donorIndexLength() + " when collected");
            }
        }
        return out;
    }

    private static Path staging(Path dir, long start, String ext) {
        return dir.resolve(SegmentFiles.stem(start) + ext + SegmentFiles.STAGING);
    }

    /** Why {@code p} is not {@code length} bytes hashing to {@code xxh3}, or null when it is. */
    private static String differs(Path p, long length, long xxh3) throws IOException {
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return "is missing or not a regular file";
        }
        long now = Files.size(p);
        if (now != length) {
            return "is " + now + " bytes, was " + length;
        }
        long h = FileXxh3.hash(p);
        if (h != xxh3) {
            return "changed (XXH3-64 " + ReplicaJson.hex(h) + ", was " + ReplicaJson.hex(xxh3) + ")";
        }
        return null;
    }

    /** The journaled plan: stage every new file, then per segment install the log and its index. */
    private static RepairPlan plan(PlanFile.Entry e, PartitionPath partition, Path donor, boolean durable)
            throws IOException {
        Path dir = partition.directory();
        List<RepairOp> stages = new ArrayList<>();
        List<RepairOp> installs = new ArrayList<>();
        List<RepairPlan.Leaving> leaving = new ArrayList<>();
        Map<String, byte[]> contents = new LinkedHashMap<>();
        Map<String, List<FileRange>> assembled = new LinkedHashMap<>();
        List<long[]> pending = new ArrayList<>();
        for (ReplicaComparison.Transfer t : e.transfers()) {
            Path log = SegmentFiles.log(dir, t.segment());
            Path index = SegmentFiles.index(dir, t.segment());
            String logName = log.getFileName().toString();
            String indexName = index.getFileName().toString();
            long indexLength = Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS) ? Files.size(index) : 0;
            boolean indexExisted = Files.exists(index, LinkOption.NOFOLLOW_LINKS);
            if (t.to() == 0 && t.from() == 0) {
                installs.add(new RepairOp.Delete(0, logName, "not in the donor's chain", t.localLength()));
                pending.add(new long[]{installs.size() - 1, 0, t.localLength()});
                if (indexExisted) {
                    installs.add(new RepairOp.Delete(0, indexName, "not in the donor's chain", indexLength));
                    pending.add(new long[]{installs.size() - 1, 1, indexLength});
                }
                continue;
            }
            List<FileRange> newLog = new ArrayList<>();
            if (t.from() > 0) {
                newLog.add(new FileRange(log, 0, t.from()));
            }
            if (t.to() > t.from()) {
                newLog.add(new FileRange(SegmentFiles.log(donor, t.segment()), t.from(), t.to() - t.from()));
            }
            long newLogLength = t.to();
            Path donorIndex = SegmentFiles.index(donor, t.segment());
            long prefix = indexPrefixBelow(donorIndex, t.to());
            String logContent = "new/" + logName;
            String indexContent = "new/" + indexName;
            assembled.put(logContent, newLog);
            long newIndexLength;
            String ih;
            if (prefix >= 0) {
                List<FileRange> indexPieces = prefix == 0 ? List.of()
                        : List.of(new FileRange(donorIndex, 0, prefix));
                assembled.put(indexContent, indexPieces);
                newIndexLength = prefix;
                ih = Hashing.hex(FileXxh3.hash(indexPieces));
            } else {
                byte[] newIndex = IndexFile.encode(entriesBelow(donorIndex, t.to()));
                contents.put(indexContent, newIndex);
                newIndexLength = newIndex.length;
                ih = Hashing.hex(segtool.formats.hash.Xxh3.hash(newIndex));
            }
            String logStaging = logName + SegmentFiles.STAGING;
            String indexStaging = indexName + SegmentFiles.STAGING;
            String lh = Hashing.hex(FileXxh3.hash(newLog));
            stages.add(new RepairOp.StageIndex(0, logStaging, logContent, newLogLength, lh));
            stages.add(new RepairOp.StageIndex(0, indexStaging, indexContent, newIndexLength, ih));
            installs.add(new RepairOp.InstallIndex(0, logName, logStaging, t.localLength(), t.localPresent(),
                    logContent, newLogLength, lh));
            pending.add(new long[]{installs.size() - 1, 0, t.localPresent() ? t.localLength() : 0});
            installs.add(new RepairOp.InstallIndex(0, indexName, indexStaging, indexLength, indexExisted,
                    indexContent, newIndexLength, ih));
            pending.add(new long[]{installs.size() - 1, 1, indexLength});
        }
        List<RepairOp> ops = new ArrayList<>();
        for (RepairOp op : stages) {
            ops.add(renumber(op, ops.size()));
        }
        int base = ops.size();
        for (RepairOp op : installs) {
            ops.add(renumber(op, ops.size()));
        }
        for (long[] p : pending) {
            RepairOp op = ops.get(base + (int) p[0]);
            leave(leaving, op.seq(), op.file(), p[2], "replaced with the donor's " + op.file() + " ("
                    + e.donor() + ")");
        }
        return new RepairPlan("apply", partition, durable, List.copyOf(ops), List.copyOf(leaving), contents,
                List.of(), null, assembled);
    }

    private static RepairOp renumber(RepairOp op, int seq) {
        if (op instanceof RepairOp.StageIndex s) {
            return new RepairOp.StageIndex(seq, s.file(), s.content(), s.length(), s.xxh3());
        }
        if (op instanceof RepairOp.InstallIndex i) {
            return new RepairOp.InstallIndex(seq, i.file(), i.staging(), i.from(), i.existed(), i.content(),
                    i.length(), i.xxh3());
        }
        RepairOp.Delete d = (RepairOp.Delete) op;
        return new RepairOp.Delete(seq, d.file(), d.reason(), d.length());
    }

    private static void leave(List<RepairPlan.Leaving> out, int op, String file, long length, String reason) {
        for (long at = 0; at < length; at += Hashing.MAX_RANGE) {
            out.add(new RepairPlan.Leaving(op, file, at, Math.min(Hashing.MAX_RANGE, length - at), length, reason));
        }
    }

    private static String known(Long v) {
        return v == null ? "unknown" : U64.str(v);
    }

    /**
     * The bytes of the donor's index that hold exactly its entries below {@code to}, when those entries are a prefix
     * of the file (as in every index the server writes: positions ascend), so the new index is a copy of that
     * prefix; -1 when they are not (the entries are then selected one by one).
     */
    private static long indexPrefixBelow(Path index, long to) throws IOException {
        if (!Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        try (IndexFile f = IndexFile.open(index)) {
            long k = 0;
            while (k < f.entries() && Long.compareUnsigned(f.entry(k).position(), to) < 0) {
                k++;
            }
            for (long i = k; i < f.entries(); i++) {
                if (Long.compareUnsigned(f.entry(i).position(), to) < 0) {
                    return -1;
                }
            }
            return k * IndexEntry.LENGTH;
        }
    }

    /** The donor index's whole entries whose record starts below {@code to}. */
    private static List<IndexEntry> entriesBelow(Path index, long to) throws IOException {
        List<IndexEntry> out = new ArrayList<>();
        if (!Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        try (IndexFile f = IndexFile.open(index)) {
            for (long i = 0; i < f.entries(); i++) {
                IndexEntry e = f.entry(i);
                if (Long.compareUnsigned(e.position(), to) < 0) {
                    out.add(e);
                }
            }
        }
        return out;
    }
}
