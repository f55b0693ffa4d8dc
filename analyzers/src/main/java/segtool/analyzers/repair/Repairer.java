package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.salvage.AtStake;
import segtool.analyzers.salvage.OffsetRanges;
import segtool.analyzers.salvage.ArchiveReuse;
import segtool.analyzers.salvage.Salvager;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.naming.PartitionPath;

/**
 * Analyze, plan, apply, for one partition at a time. With {@code apply}: look for a server using the data, finish
 * any repair a crash interrupted (its journaled plan, not a new one), judge afresh, plan, ask, apply, and judge
 * again to show the result is what the next boot will find. Without: the same up to the plan, changing nothing.
 * Refused partitions are explained and never touched.
 */
public final class Repairer {
    /** Per-partition result; {@link #exitCode()} follows {@code scan}'s codes. */
    public enum Status {
        CLEAN, PLANNED, APPLIED, DECLINED, REFUSED, NOT_REBUILDABLE, IO_ERROR, IN_USE;

        public String json() {
            return name().toLowerCase();
        }
    }

    /** Exit code when the data is in use and nothing was changed. */
    public static final int EXIT_IN_USE = ExitCode.IN_USE;

    /** What happened to one partition. */
    public record Outcome(PartitionPath partition, boolean durable, Status status, PartitionReport before,
                          RepairPlan plan, Path quarantine, List<Path> resumed, List<Path> discarded,
                          List<Quarantine> pending, PartitionReport after, ServerGuard.Report server,
                          List<String> notes, String error, Set<Long> segments, Loss loss) {
        /**
         * 0 clean or repaired (the next boot finds nothing to do; for rebuild-index: nothing to do for the
         * rebuilt segments), 1 changes pending, 2 refused, 3 I/O error, 4 in use.
         */
        public int exitCode() {
            return ExitCode.of(this);
        }
    }

    private final RecoveryEngine engine;
    private final Function<Path, ServerGuard.Report> guard;
    private final Applier applier;
    private final Confirm confirm;
    private final Map<Path, ServerGuard.Report> checked;
    private final Companions companions;

    /**
     * What the repairers of one command run share, so that a data directory of many partitions (one repairer each,
     * for each partition's own checkpoint) is not re-examined per partition: the in-use check of each scope (every
     * mutation still checks again just before it), and the listing of each parent for quarantines.
     */
    public static final class Shared {
        final Map<Path, ServerGuard.Report> checked = new HashMap<>();
        final Companions companions = new Companions();
    }

    /** {@code guard} checks a scope for users of the data: {@code new ServerGuard()::check}. */
    public Repairer(RecoveryEngine engine, Function<Path, ServerGuard.Report> guard, Applier applier,
                    Confirm confirm) {
        this(engine, guard, applier, confirm, new Shared());
    }

    /** As above, sharing {@code shared} with the other repairers of the same run. */
    public Repairer(RecoveryEngine engine, Function<Path, ServerGuard.Report> guard, Applier applier,
                    Confirm confirm, Shared shared) {
        this.engine = engine;
        this.guard = guard;
        this.applier = applier;
        this.confirm = confirm;
        this.checked = shared.checked;
        this.companions = shared.companions;
    }

    /** The body of a run, under the partition's lock when it applies. */
    private interface Body {
        Outcome run() throws IOException;
    }

    /**
     * Runs {@code body} holding the partition's {@link PartitionLock} when {@code run.apply}: taken before the in-use
     * check, released after the last step is durable (and by the OS if the process dies). A partition another run
     * holds is reported as in use, naming the holder, even with {@code --force}.
     */
    private static Outcome locked(Run run, Body body) {
        PartitionLock lock = null;
        try {
            if (run.apply) {
                lock = PartitionLock.acquire(run.partition.directory());
            }
            return body.run();
        } catch (PartitionLock.Held held) {
            run.server = lockHolder(run.partition, held);
            return run.outcome(Status.IN_USE);
        } catch (DataInUse busy) {
            run.server = busy.report;
            return run.outcome(Status.IN_USE);
        } catch (IOException | RuntimeException e) {
            if (RecoveryEngine.Cancelled.isInterrupt(e)) {
                // stopped by Ctrl-C or SIGTERM: the whole run stops, saying what this partition was left in
                throw Interrupted.of(run.partition.directory(), run.applied(), run.archive == null ? null
                        : "the salvage archive " + run.archive + " is complete: run again with --salvage-to "
                        + run.archive + " to reuse it", e);
            }
            return run.failed(e);
        } finally {
            if (lock != null) {
                try {
                    lock.close();
                } catch (IOException ignored) {
                    // closing the channel releases the lock; the OS releases it at exit in any case
                }
            }
        }
    }

    private static ServerGuard.Report lockHolder(PartitionPath partition, PartitionLock.Held held) {
        return new ServerGuard.Report(ServerGuard.scopeOf(partition), true, List.of(new ServerGuard.Holder(
                held.pid(), "segtool", held.file().toString(), "holds the repair lock")), List.of(), 0,
                List.of("another segtool run is changing this partition; wait for it to finish, then run again"
                        + " (--force does not override the lock)"));
    }

    /** A server (or other user of the data) seen by the check repeated just before the first mutation. */
    static final class DataInUse extends IOException {
        final transient ServerGuard.Report report;

        DataInUse(ServerGuard.Report report) {
            super(report.scope() + ": in use: " + String.join("; ", report.reasons()));
            this.report = report;
        }
    }

    /**
     * The partition with its directory resolved once to the real path, so that a partition reached through a
     * symlink gets its lock, quarantine and fence directories beside the real directory, not beside the link.
     */
    static PartitionPath real(PartitionPath partition) {
        try {
            Path real = partition.directory().toRealPath();
            return partition.withDirectory(real);
        } catch (IOException e) {
            return partition;
        }
    }

    /** {@code repair}: make the files what the server's boot recovery would make them. */
    public Outcome repair(PartitionPath partition, boolean durable, boolean apply, boolean force) {
        Run run = new Run(real(partition), durable, apply, force);
        return locked(run, () -> {
            if (!run.prepare()) {
                return run.outcome(Status.IN_USE);
            }
            run.before = engine.judge(run.partition, durable);
            Status judged = run.judged();
            if (judged != null) {
                return run.outcome(judged);
            }
            if (!run.before.changesFiles()) {   // nothing to do, or only an identical re-install (RECOVERY 7.2)
                run.after = run.resumed.isEmpty() ? null : run.before;
                return run.outcome(run.resumed.isEmpty() ? Status.CLEAN : Status.APPLIED);
            }
            run.plan = Planner.repair(run.before, engine.options().view());
            return run.execute();
        });
    }

    /**
     * One step of {@code repair --accept-loss}: the refusal it answers (null for the ordinary repair that follows the
     * cuts), what is at stake (null likewise), its plan, and the quarantine that keeps what it removed (null until
     * applied).
     */
    public record Cut(Refusal refusal, AtStake stake, RepairPlan plan, Path quarantine) {
    }

    /**
     * What {@code repair --accept-loss} did or would do: the survey of every record that verifies (what the salvage
     * archive holds), the archive written (null in a dry run or before any cut), the cuts in order, and, when no safe
     * cut exists for a refusal, the one line that says why ({@code unsafe}).
     */
    public record Loss(Salvager.Result survey, Path archive, boolean archiveReused, List<Cut> cuts, String unsafe) {
        public Loss {
            cuts = List.copyOf(cuts);
        }

        /** The quarantines of the applied steps, newest first: the order {@code restore} undoes them in. */
        public List<Path> quarantinesNewestFirst() {
            List<Path> out = new ArrayList<>();
            for (Cut c : cuts) {
                if (c.quarantine() != null) {
                    out.add(0, c.quarantine());
                }
            }
            return out;
        }
    }

    /** At most this many cuts per run; every cut removes bytes, so a longer chain means something is wrong. */
    static final int MAX_CUTS = 64;

    /**
     * {@code repair --accept-loss}: the least-loss way from a refused partition to one the server boots. A dry run
     * shows the first cut (what leaves the live partition, what the salvage archive keeps). With {@code apply}: the
     * salvage archive is written to {@code salvageTo} first (or, after an interrupted run, the archive that run
     * wrote there is reused), then each cut is applied like a repair (quarantine, journal, lock), the partition is
     * judged again, and the next cut answers the next refusal, until the server would accept it; an ordinary repair
     * then makes the files what its boot would make them. An accepted partition is repaired as by {@link #repair}.
     */
    public Outcome acceptLoss(PartitionPath partition, boolean durable, boolean apply, boolean force, Path salvageTo,
                              String version) {
        Run run = new Run(real(partition), durable, apply, force);
        run.cuts = new ArrayList<>();
        return locked(run, () -> {
            if (!run.prepare()) {
                return run.outcome(Status.IN_USE);
            }
            run.before = engine.judge(run.partition, durable);
            Status judged = run.judged();
            if (judged == Status.IO_ERROR) {
                return run.outcome(judged);
            }
            if (judged == null) {
                if (!run.before.changesFiles()) {
                    run.after = run.resumed.isEmpty() ? null : run.before;
                    return run.outcome(run.resumed.isEmpty() ? Status.CLEAN : Status.APPLIED);
                }
                run.plan = Planner.repair(run.before, engine.options().view());
                return run.execute();
            }
            Salvager.Options options = Salvager.Options.defaults(version)
                    .withMaxBatchBytes(engine.options().maxBatchBytes());
            run.survey = new Salvager(AtStake.surveying(run.before, options)).survey(run.partition, new ArrayList<>());
            PartitionReport now = run.before;
            RepairPlan next;
            AtStake stake = AtStake.of(now, run.survey);
            try {
                next = AcceptLoss.plan(engine, now, stake);
            } catch (AcceptLoss.Unsafe unsafe) {
                run.unsafe = unsafe.getMessage();
                return run.outcome(Status.REFUSED);
            }
            run.plan = next;
            run.cuts.add(new Cut(now.refusal(), stake, next, null));
            if (!apply) {
                return run.outcome(Status.PLANNED);
            }
            if (salvageTo == null) {
                throw new IOException(run.partition.directory() + ": repair --accept-loss --apply needs --salvage-to "
                        + "DIR, where the salvage archive of every record that verifies is written first");
            }
            String notReusable = salvageFirst(run, options, salvageTo);
            if (notReusable != null) {
                run.unsafe = notReusable;
                return run.outcome(Status.REFUSED);
            }
            while (true) {
                if (!confirm.approve(next)) {
                    return run.outcome(Status.DECLINED);
                }
                Quarantine q = applier.apply(next, run.gate());
                Cut done = run.cuts.remove(run.cuts.size() - 1);
                run.cuts.add(new Cut(done.refusal(), done.stake(), done.plan(), q.directory()));
                run.quarantine = run.quarantine == null ? q.directory() : run.quarantine;
                now = engine.judge(run.partition, durable);
                if (now.outcome() != PartitionReport.Outcome.REFUSED) {
                    break;
                }
                if (run.cuts.size() >= MAX_CUTS) {
                    run.unsafe = "still refused after " + MAX_CUTS + " cuts: " + now.refusal() + "; segtool stops";
                    run.after = now;
                    return run.outcome(Status.APPLIED);
                }
                stake = AtStake.of(now, new Salvager(AtStake.surveying(now, options))
                        .survey(run.partition, new ArrayList<>()));
                try {
                    next = AcceptLoss.plan(engine, now, stake);
                } catch (AcceptLoss.Unsafe unsafe) {
                    run.unsafe = unsafe.getMessage();
                    run.after = now;
                    return run.outcome(Status.APPLIED);
                }
                run.cuts.add(new Cut(now.refusal(), stake, next, null));
            }
            if (now.outcome() == PartitionReport.Outcome.ACCEPTED && now.changesFiles()) {
                RepairPlan repair = Planner.repair(now, engine.options().view());
                run.cuts.add(new Cut(null, null, repair, null));
                if (!confirm.approve(repair)) {
                    run.after = now;
                    return run.outcome(Status.DECLINED);
                }
                Quarantine q = applier.apply(repair, run.gate());
                run.cuts.set(run.cuts.size() - 1, new Cut(null, null, repair, q.directory()));
                now = engine.judge(run.partition, durable);
            }
            run.after = now;
            if (now.outcome() != PartitionReport.Outcome.ACCEPTED || now.changesFiles()) {
                run.notes.add("after the cuts the partition still is not clean: " + (now.refusal() != null
                        ? now.refusal().toString() : now.ioError() != null ? now.ioError()
                        : now.operations().size() + " operation(s) pending"));
            }
            return run.outcome(Status.APPLIED);
        });
    }

    /**
     * Writes the salvage archive before any cut. An archive already at {@code out} is reused only when it is a
     * salvage archive of this same partition (an interrupted accept-loss run wrote it before changing anything) whose
     * offsets cover every offset a record that verifies holds now, and which holds each of those records byte for
     * byte ({@link ArchiveReuse}: every batch of the archive verifies and hashes as its line says, and every
     * verifying record of the partition now is one of them). Returns null when the archive is in place, else the
     * one line saying why the archive at {@code out} cannot stand for a new one (nothing is changed then).
     */
    private static String salvageFirst(Run run, Salvager.Options options, Path out) throws IOException {
        Path target = out.toAbsolutePath().normalize();
        if (Files.isDirectory(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(target.resolve(Salvager.SUMMARY), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            com.fasterxml.jackson.databind.JsonNode summary;
            try {
                summary = Manifest.mapper().readTree(target.resolve(Salvager.SUMMARY).toFile());
            } catch (IOException unreadable) {
                summary = null;
            }
            String dir = run.partition.directory().toAbsolutePath().normalize().toString();
            if (summary != null && Salvager.SCHEMA.equals(summary.path("schema").asText())
                    && dir.equals(summary.path("partition").path("directory").asText())
                    && covers(summary.path("archived_offsets"), run.survey.archived())) {
                String why = ArchiveReuse.refusal(run.partition, target, options.maxBatchBytes(), options.window());
                if (why != null) {
                    return why;
                }
                run.archive = target;
                run.archiveReused = true;
                run.notes.add("reusing the salvage archive " + target + ": it is of this partition, and every record "
                        + "that verifies now is in it byte for byte (XXH3-64 per batch), every batch of it verifying");
                return null;
            }
        }
        Salvager.Result written = new Salvager(options.withMessages(true)).salvage(run.partition, target,
                new ArrayList<>());
        run.archive = written.archive();
        return null;
    }

    /** True when the summary's {@code archived_offsets} hold every offset of {@code now}. */
    private static boolean covers(com.fasterxml.jackson.databind.JsonNode archived, OffsetRanges now) {
        OffsetRanges held = new OffsetRanges();
        for (com.fasterxml.jackson.databind.JsonNode r : archived) {
            try {
                held.add(Long.parseUnsignedLong(r.path("first").asText()),
                        Long.parseUnsignedLong(r.path("last").asText()));
            } catch (NumberFormatException bad) {
                return false;
            }
        }
        for (OffsetRanges.Range r : now.list()) {
            if (!held.missingWithin(r.first(), r.last()).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code rebuild-index}: replace the index of {@code segment} (or of every segment when null) with one rebuilt
     * from the byte-0 walk. Refused when the walk does not consume the whole log (a torn or damaged tail is
     * {@code repair}'s job) and when the partition is refused.
     */
    public Outcome rebuildIndex(PartitionPath partition, Long segment, boolean durable, boolean apply,
                                boolean force) {
        Run run = new Run(real(partition), durable, apply, force);
        return locked(run, () -> {
            if (!run.prepare()) {
                return run.outcome(Status.IN_USE);
            }
            run.before = engine.judgeKeepingEntries(run.partition, durable);
            Status judged = run.judged();
            if (judged != null) {
                return run.outcome(judged);
            }
            List<SegmentReport> targets = new ArrayList<>();
            run.segments = new java.util.HashSet<>();
            boolean found = false;
            for (SegmentReport s : run.before.segments()) {
                if (segment != null && s.start() != segment) {
                    continue;
                }
                found = true;
                run.segments.add(s.start());
                List<IndexEntry> entries = rebuilt(run.partition, durable, s, run.notes);
                if (entries == null) {
                    continue;
                }
                if (!sameIndex(s, entries)) {
                    targets.add(SegmentReport.indexTarget(s.start(), s.log(), s.index(), entries));
                } else {
                    run.notes.add(s.index().getFileName() + " already holds exactly the rebuilt entries ("
                            + entries.size() + ")");
                }
            }
            if (!found) {
                throw new IOException(run.partition.directory() + ": no segment starts at offset " + segment);
            }
            if (run.notes.stream().anyMatch(n -> n.startsWith(NOT_REBUILDABLE))) {
                return run.outcome(Status.NOT_REBUILDABLE);
            }
            if (targets.isEmpty()) {
                run.after = run.resumed.isEmpty() ? null : run.before;
                return run.outcome(run.resumed.isEmpty() ? Status.CLEAN : Status.APPLIED);
            }
            if (durable) {
                run.notes.add("enforce_fsync=true: the rebuilt index keeps one entry per 64 KiB of log, fewer than "
                        + "the writer's one per flush, so boot's durable-mode step-back check has less evidence "
                        + "for these segments until the server writes new entries");
            }
            run.plan = Planner.rebuildIndex(run.before, targets, engine.options().view());
            return run.execute();
        });
    }

    private static final String NOT_REBUILDABLE = "cannot rebuild ";

    /** The entries R() produces for {@code s} when it consumes the whole log; otherwise null and a note. */
    private List<IndexEntry> rebuilt(PartitionPath partition, boolean durable, SegmentReport s, List<String> notes)
            throws IOException {
        String name = s.log().getFileName().toString();
        if (s.logLength() == 0) {
            if (s.indexLength() != 0) {
                notes.add(NOT_REBUILDABLE + name + ": the log is empty, so the index has nothing to point at; "
                        + "repair fences the stale index");
                return null;
            }
            notes.add(name + ": empty segment, no index to rebuild");
            return null;
        }
        if (s.result() == SegmentReport.Result.KEEP && s.rebuiltEntries() != null) {
            return s.rebuiltEntries();   // its byte-0 walk reached the end of the log: R()'s records, walked once
        }
        SegmentReport r = s.result() == SegmentReport.Result.REBUILT ? s
                : engine.rebuildWalk(partition, s.start(), durable);
        if (r.result() == SegmentReport.Result.REFUSED) {
            notes.add(NOT_REBUILDABLE + name + ": the byte-0 walk is refused: " + r.refusal());
            return null;
        }
        if (r.result() != SegmentReport.Result.REBUILT) {
            notes.add(NOT_REBUILDABLE + name + ": no record verifies from byte 0 (the segment is recovered empty;"
                    + " repair fences it)");
            return null;
        }
        if (r.size() != r.logLength()) {
            notes.add(NOT_REBUILDABLE + name + ": the byte-0 walk stops at byte " + r.size() + " of " + r.logLength()
                    + " (torn or damaged tail: that is repair's job)");
            return null;
        }
        return r.rebuiltEntries();
    }

    private static boolean sameIndex(SegmentReport s, List<IndexEntry> entries) throws IOException {
        if (s.indexLength() != (long) entries.size() * IndexEntry.LENGTH) {
            return false;
        }
        try (IndexFile index = IndexFile.open(s.index())) {
            for (int i = 0; i < entries.size(); i++) {
                if (!index.entry(i).equals(entries.get(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** What {@code restore} did to one quarantine. */
    public record RestoreOutcome(Path quarantine, Path partition, String stateBefore, ServerGuard.Report server,
                                 Applier.RestoreResult result, String error) {
        /** 0 restored (or nothing to do), 1 dry run with work to do, 2 conflicts, 3 I/O, 4 in use. */
        public int exitCode() {
            return ExitCode.of(this);
        }
    }

    /**
     * {@code restore}: put back every byte a quarantine holds (dry run unless {@code apply}). With {@code apply} it
     * holds the partition's lock, and checks for users of the data again just before the first change.
     */
    public RestoreOutcome restore(Path quarantine, boolean apply, boolean force) {
        Path partition = null;
        String state = null;
        ServerGuard.Report server = null;
        PartitionLock lock = null;
        int stepsBefore = applier.steps();
        try {
            Quarantine q = Quarantine.open(quarantine);
            partition = q.partition();
            state = q.manifest().state();
            if (apply) {
                try {
                    lock = PartitionLock.acquire(partition);
                } catch (PartitionLock.Held held) {
                    return new RestoreOutcome(q.directory(), partition, state,
                            lockHolder(PartitionPath.of(partition), held), null, null);
                }
                server = guard.apply(ServerGuard.scopeOf(PartitionPath.of(partition)));
            } else {
                server = serverCheck(PartitionPath.of(partition));
            }
            if (apply && server.busy() && !force) {
                return new RestoreOutcome(q.directory(), partition, state, server, null, null);
            }
            return new RestoreOutcome(q.directory(), partition, state, server, applier.restore(q, apply), null);
        } catch (IOException | RuntimeException e) {
            if (RecoveryEngine.Cancelled.isInterrupt(e)) {
                throw Interrupted.restore(quarantine, applier.steps() != stepsBefore, e);
            }
            return new RestoreOutcome(quarantine, partition, state, server, null,
                    e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null
                            ? segtool.formats.io.OsReason.line(fs.getFile(), fs)
                            : e.getMessage() == null ? e.toString() : e.getMessage());
        } finally {
            if (lock != null) {
                try {
                    lock.close();
                } catch (IOException ignored) {
                    // the OS releases it at exit in any case
                }
            }
        }
    }

    private ServerGuard.Report serverCheck(PartitionPath partition) {
        return checked.computeIfAbsent(ServerGuard.scopeOf(partition), guard);
    }

    /** The state of one partition's run. */
    private final class Run {
        final PartitionPath partition;
        final boolean durable;
        final boolean apply;
        final boolean force;
        final List<Path> resumed = new ArrayList<>();
        final List<Path> discarded = new ArrayList<>();
        final List<Quarantine> pending = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        ServerGuard.Report server;
        Set<Long> segments;
        PartitionReport before;
        RepairPlan plan;
        Path quarantine;
        PartitionReport after;
        List<Cut> cuts;
        Salvager.Result survey;
        Path archive;
        boolean archiveReused;
        String unsafe;

        Loss loss() {
            return cuts == null ? null : new Loss(survey, archive, archiveReused, cuts, unsafe);
        }

        Run(PartitionPath partition, boolean durable, boolean apply, boolean force) {
            this.partition = partition;
            this.durable = durable;
            this.apply = apply;
            this.force = force;
        }

        /**
         * Server check, then (with apply) finish interrupted repairs, checking again just before. False when the data
         * is in use. A quarantine that cannot be read is named in a note and left alone; it blocks nothing else.
         */
        boolean prepare() throws IOException {
            server = serverCheck(partition);
            if (server.busy()) {
                if (apply && !force) {
                    return false;
                }
                if (apply) {
                    notes.add("--force: changing files although " + String.join("; ", server.reasons()));
                }
            }
            for (Path q : companions.mayHave(partition.directory()) ? Quarantine.of(partition.directory())
                    : List.<Path>of()) {
                if (Files.isSymbolicLink(q)) {
                    notes.add(q.getFileName() + ": a symlink named like a quarantine directory; segtool never "
                            + "follows one, and left it alone");
                    continue;
                }
                if (!Quarantine.hasManifest(q)) {
                    if (apply) {
                        // Under the partition lock no other segtool run can be filling it: an apply that stopped
                        // before its commit point left it, and nothing was changed for it.
                        gate().check();
                        applier.discard(q);
                        discarded.add(q);
                    } else {
                        notes.add(q.getFileName() + ": an apply that stopped before changing anything left it; "
                                + "--apply removes it");
                    }
                    continue;
                }
                Quarantine open;
                try {
                    open = Quarantine.open(q);
                } catch (IOException | RuntimeException damaged) {
                    notes.add(q.getFileName() + ": damaged quarantine, left alone (restore cannot use it as it is): "
                            + (damaged.getMessage() == null ? damaged.toString() : damaged.getMessage()));
                    continue;
                }
                if (!open.unfinished()) {
                    continue;
                }
                if (apply) {
                    if (open.manifest().enforceFsync() != durable) {
                        notes.add(q.getFileName() + " was planned with enforce_fsync=" + open.manifest().enforceFsync()
                                + "; finishing that plan as journaled");
                    }
                    gate().check();
                    applier.resume(open);
                    resumed.add(q);
                } else {
                    pending.add(open);
                }
            }
            return true;
        }

        /** The in-use check again, uncached, immediately before a mutation; --force only warns. */
        Applier.Gate gate() {
            return () -> {
                ServerGuard.Report now = guard.apply(ServerGuard.scopeOf(partition));
                checked.put(ServerGuard.scopeOf(partition), now);
                if (now.busy() && !force) {
                    throw new DataInUse(now);
                }
            };
        }

        /** The status for a judgement that stops here, or null to go on planning. */
        Status judged() {
            notes.addAll(before.warnings());
            switch (before.outcome()) {
                case IO_ERROR:
                    return Status.IO_ERROR;
                case REFUSED:
                    return Status.REFUSED;
                default:
                    return null;
            }
        }

        Outcome execute() throws IOException {
            if (!apply) {
                return outcome(Status.PLANNED);
            }
            if (!confirm.approve(plan)) {
                return outcome(Status.DECLINED);
            }
            Quarantine q = applier.apply(plan, gate());
            quarantine = q.directory();
            after = engine.judge(partition, durable);
            if (segments != null) {
                long mine = after.segments().stream().filter(s -> segments.contains(s.start()))
                        .mapToLong(s -> s.operations().size()).sum();
                long others = after.operations().size() - mine;
                if (others > 0) {
                    notes.add("the partition still needs " + others + " other operation(s); see segtool repair");
                }
            } else if (after.outcome() != PartitionReport.Outcome.ACCEPTED || after.changesFiles()) {
                notes.add("after the repair the partition still is not clean: "
                        + (after.refusal() != null ? after.refusal().toString() : after.operations().size()
                        + " operation(s) pending") + " (see RECOVERY 11.2 for the one known non-fixpoint)");
            }
            return outcome(Status.APPLIED);
        }

        Outcome outcome(Status status) {
            return new Outcome(partition, durable, status, before, plan, quarantine, List.copyOf(resumed),
                    List.copyOf(discarded), List.copyOf(pending), after, server, List.copyOf(notes), null, segments,
                    loss());
        }

        /** The quarantines this run completed: resumed plans, then its own repair or cuts. */
        List<Path> applied() {
            List<Path> out = new ArrayList<>(resumed);
            if (cuts != null) {
                for (Cut c : cuts) {
                    if (c.quarantine() != null) {
                        out.add(c.quarantine());
                    }
                }
            } else if (quarantine != null) {
                out.add(quarantine);
            }
            return out;
        }

        Outcome failed(Exception e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            try {
                for (Path q : Quarantine.of(partition.directory())) {
                    if (Quarantine.hasManifest(q) && Quarantine.open(q).unfinished()) {
                        notes.add(q + " holds every byte removed so far; run repair --apply again to finish the "
                                + "plan, or restore " + q.getFileName() + " to undo it");
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // the failure itself is reported
            }
            Status status = e instanceof Planner.Unsafe ? Status.REFUSED : Status.IO_ERROR;
            return new Outcome(partition, durable, status, before, plan, quarantine, List.copyOf(resumed),
                    List.copyOf(discarded), List.copyOf(pending), after, server, List.copyOf(notes), message,
                    segments, loss());
        }
    }
}
