package segtool.shell.render;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.AnchorSearch;
import segtool.analyzers.recovery.DecisionStep;
import segtool.analyzers.recovery.LogRegions;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.ProbeResult;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.recovery.Region;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.recovery.Survivors;
import segtool.analyzers.recovery.Walk;
import segtool.analyzers.report.ShellWords;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.shell.Cancelled;

/**
 * Turns a judged partition (both modes) into plain-language facts: what the index claims and what the log proves,
 * where each walk stopped and on which check, the probe and the step-back, what recovery does under each
 * {@code durability}, the exact plan, what boot leaves unread, and the next step. Also paints each segment's
 * map. Text and JSON render the same facts.
 *
 * <p>Renders only: the facts come from the report, the map and the survivors from the engine's regions of each log
 * ({@link segtool.analyzers.recovery.RecoveryEngine#regions}); no file is opened here.
 */
public final class Explainer {
    /**
     * One statement under a topic, e.g. {@code ("at boot", "truncates the log ...")}. A {@code detail} fact speaks
     * the spec's internals (decision steps, walks, probes, budgets): text shows it only with {@code --detail};
     * {@code --json} carries every fact.
     */
    public record Fact(String topic, String text, boolean detail) {
        public Fact(String topic, String text) {
            this(topic, text, false);
        }

        static Fact detail(String topic, String text) {
            return new Fact(topic, text, true);
        }
    }

    public record SegmentStory(SegmentReport segment, List<SegmentMap.Span> map, List<Fact> facts,
                               Survivors survivors) {
    }

    public record PartitionStory(PartitionReport report, List<Fact> facts, List<SegmentStory> segments) {
    }

    /** The command line's options that change which records verify, repeated on the commands a story prints. */
    private final String records;

    public Explainer() {
        this("");
    }

    /**
     * {@code records}: the command line's {@code --partition-id} and {@code --max-message-size-upper}, as
     * {@code VerdictOptions.recordFlags()} spells them, for the batches, segments and hexdump commands a story prints
     * (so that they check records as this judgement did).
     */
    public Explainer(String records) {
        this.records = records;
    }

    /** The segment's state in a heading: its status, or what pass A planned when the partition was refused later. */
    public static String label(SegmentReport s) {
        if (s.status() == SegmentReport.Status.NOT_EXAMINED && (s.result() == SegmentReport.Result.KEEP
                || s.result() == SegmentReport.Result.REBUILT || s.result() == SegmentReport.Result.EMPTY)) {
            return "planned " + s.result().name().toLowerCase() + " (the partition is refused)";
        }
        return s.status().json();
    }

    public static String mode(boolean durable) {
        return durable ? "durability=persisted (durable)" : "durability=replicated (lenient)";
    }

    /**
     * Explains {@code r} (judged with {@code otherMode} attached), with {@code regions} the engine's regions of its
     * logs in the report's order; {@code only} restricts the segments shown.
     */
    public PartitionStory explain(PartitionReport r, List<LogRegions> regions, Long only) {
        List<SegmentStory> segs = new ArrayList<>();
        for (int i = 0; i < r.segments().size(); i++) {
            SegmentReport s = r.segments().get(i);
            if (only == null || only == s.start()) {
                Cancelled.check();
                segs.add(segment(r, s, regions.get(i)));
            }
        }
        return new PartitionStory(r, partitionFacts(r), segs);
    }

    // ---- partition ---------------------------------------------------------------------------------------

    private List<Fact> partitionFacts(PartitionReport r) {
        List<Fact> f = new ArrayList<>();
        f.add(new Fact("verdict", atBoot(r) + "  [" + mode(r.durable()) + ", the value used]"));
        PartitionReport o = r.otherMode();
        if (o != null) {
            boolean same = sameVerdict(r, o);
            f.add(new Fact("other mode", atBoot(o) + "  [" + mode(o.durable()) + "]"
                    + (o.refusal() != null ? "\n" + o.refusal() : "") + (same
                    ? " - the same verdict"
                    : "\nThe setting changes the verdict: confirm the topic's durability before acting.")));
        }
        if (r.refusal() != null) {
            f.add(new Fact("why refused", refusalWhy(r.refusal(), r)));
        }
        if (!r.swept().isEmpty()) {
            for (PlannedOp.Delete d : r.swept()) {
                f.add(new Fact("boot sweep", "deletes " + ShellWords.shown(d.path().getFileName().toString()) + " (" + d.reason()
                        + "), before any verdict, even a refusal"));
            }
        }
        for (String w : r.warnings()) {
            f.add(new Fact("warning", w));
        }
        if (r.refusal() != null) {
            f.add(Fact.detail("refusal", r.refusal().toString()));
        }
        if (r.outcome() != PartitionReport.Outcome.IO_ERROR && r.budget() != null
                && (r.budget().limitUnits() != 0 || r.budget().spentVerify() != 0)) {
            f.add(Fact.detail("probe budget", "shared by the whole chain: " + U64.str(r.budget().spentUnits())
                    + " of " + U64.str(r.budget().limitUnits()) + " candidate units, "
                    + U64.str(r.budget().spentVerify())
                    + " of " + U64.str(r.budget().limitVerify()) + " verification bytes"));
        }
        return f;
    }

    /**
     * What the server does with the partition at boot, in words, with the verdict's name: {@code the server boots
     * this partition after changing files: 2 clean, 1 truncated}, {@code REFUSED (InteriorDamage): the server will
     * not boot this partition: damaged bytes in front of data that verifies}.
     */
    public static String atBoot(PartitionReport r) {
        switch (r.outcome()) {
            case IO_ERROR:
                // an engine read failure carries its IoFailure; a partition whose inputs give no verdict does not
                return (r.ioFailure() != null ? "CANNOT JUDGE (I/O error): " : "CANNOT JUDGE (no verdict from its "
                        + "inputs): ") + r.ioError();
            case REFUSED:
                return "REFUSED (" + r.refusal().variant() + "): the server will not boot this partition: "
                        + plainName(r.refusal().variant());
            default:
                String summary = Verdicts.summary(r);
                String counts = summary.substring(summary.indexOf(':') + 2);
                if (r.segments().isEmpty()) {
                    return "ACCEPTED, but there is nothing to judge: " + counts;
                }
                boolean changes = !r.swept().isEmpty();
                for (SegmentReport s : r.segments()) {
                    changes |= s.status() != SegmentReport.Status.CLEAN;
                }
                if (r.walOpenChangesFiles()) {
                    return "ACCEPTED after changes: at boot the server's WAL open first changes files (METADATA 6.7: "
                            + walOpenChanges(r) + "), then segment recovery " + (changes ? "changes files too"
                            : "changes none") + " and the server boots this partition (" + counts + ")";
                }
                return changes ? "ACCEPTED after changes: the server boots this partition and changes files itself "
                        + "first (" + counts + ")"
                        : "ACCEPTED as it is: the server boots this partition without changing a file (" + counts
                        + ")";
        }
    }

    /** {@code replaces 00000000000000000000.log, deletes 00000000000000000009.log}: what the WAL's open does to names. */
    private static String walOpenChanges(PartitionReport r) {
        List<String> out = new ArrayList<>();
        r.walOpen().readAs().keySet().forEach(n -> out.add("re-links " + n + " to " + r.walOpen().readAs().get(n)));
        r.walOpen().limits().forEach((n, l) -> out.add("cuts " + n + " to " + u(l) + " bytes"));
        r.walOpen().removed().forEach(n -> out.add("deletes " + n));
        return String.join(", ", out);
    }

    /** A refusal's name in plain words. */
    public static String plainName(Refusal.Variant v) {
        switch (v) {
            case InteriorDamage:
                return "damaged bytes lie in front of records that verify, and recovery does not cut verified data "
                        + "away";
            case UnverifiedResidue:
                return "bytes after the damage could not be classified within the work budget";
            case OffsetDiscontinuity:
                return "a record that verifies carries the wrong offsets for its place in the chain";
            case ForeignBatch:
                return "a record that verifies belongs to another partition";
            case FsyncedLogLoss:
                return "log data that a completed fsync made durable is gone (the index names more than the log "
                        + "holds)";
            case FsyncedRebuildShortfall:
                return "log data that a completed flush made durable is gone (the log proves less than its index "
                        + "named)";
            case EmptyNonTailSegment:
                return "a segment that is not the last one recovers empty";
            case Hole:
                return "offsets are missing between two segments";
            case StorageSizeMismatch:
                return "a log's size is not the size recorded for it";
            default:
                return "the WAL checkpoint's prefix of the log does not verify to its recorded size";
        }
    }

    private static boolean sameVerdict(PartitionReport a, PartitionReport b) {
        if (a.outcome() != b.outcome()) {
            return false;
        }
        if (a.refusal() != null || b.refusal() != null) {
            return a.refusal() != null && a.refusal().equals(b.refusal());
        }
        if (a.segments().size() != b.segments().size()) {
            return false;
        }
        for (int i = 0; i < a.segments().size(); i++) {
            if (a.segments().get(i).status() != b.segments().get(i).status()) {
                return false;
            }
        }
        return true;
    }

    /** What a refusal means, in the terms of its fields (RECOVERY 7.1). */
    static String refusalWhy(Refusal f, PartitionReport r) {
        String s = "segment " + u(f.segmentStart()) + ": ";
        if (f instanceof Refusal.InteriorDamage) {
            Refusal.InteriorDamage x = (Refusal.InteriorDamage) f;
            return s + "a walk stopped at byte " + u(x.damagePosition()) + ", but a complete record"
                    + " that verifies and carries newer offsets starts later, at byte " + u(x.survivorPosition())
                    + ". Recovery does not cut away data it can prove, so it refuses the partition instead of "
                    + "truncating.";
        }
        if (f instanceof Refusal.UnverifiedResidue) {
            Refusal.UnverifiedResidue x = (Refusal.UnverifiedResidue) f;
            return s + "the " + u(x.residueBytes()) + " bytes after " + u(x.damagePosition())
                    + " could not be classified within the work budget (" + u(x.candidatesExamined()) + " of "
                    + u(x.budgetUnits()) + " candidates, " + u(x.verifiedBytes()) + " of "
                    + u(x.verifyBudgetBytes()) + " verification bytes; counters cover the whole "
                    + "chain). Exhaustion always refuses, never truncates.";
        }
        if (f instanceof Refusal.OffsetDiscontinuity) {
            Refusal.OffsetDiscontinuity x = (Refusal.OffsetDiscontinuity) f;
            return s + "the record at byte " + u(x.position()) + " verifies but carries base_offset "
                    + u(x.foundOffset()) + " where the chain expects " + u(x.expectedOffset()) + ".";
        }
        if (f instanceof Refusal.ForeignBatch) {
            Refusal.ForeignBatch x = (Refusal.ForeignBatch) f;
            return s + "the record at byte " + u(x.position()) + " verifies but belongs to partition "
                    + u(x.batchPartitionId()) + ", not " + u(r.partition().partitionId())
                    + " (wrong directory, or pass the right --partition-id).";
        }
        if (f instanceof Refusal.FsyncedLogLoss) {
            Refusal.FsyncedLogLoss x = (Refusal.FsyncedLogLoss) f;
            return s + "durable mode: the index has " + u(x.entryCount()) + " entries but the log "
                    + "backs only " + u(x.provableEntries()) + " of them (searched " + u(x.searchedEntries())
                    + " entries down from the top; provable position " + u(x.provablePosition())
                    + "). More than one unbacked entry means log bytes that a completed fsync had made durable are "
                    + "gone.";
        }
        if (f instanceof Refusal.FsyncedRebuildShortfall) {
            Refusal.FsyncedRebuildShortfall x = (Refusal.FsyncedRebuildShortfall) f;
            return s + "durable mode: the index was dropped and the byte-0 rebuild proved only "
                    + u(x.walkedPosition()) + " bytes, short of the last entry's position "
                    + u(x.durablePosition()) + ", which a completed flush had made durable.";
        }
        if (f instanceof Refusal.EmptyNonTailSegment) {
            Refusal.EmptyNonTailSegment x = (Refusal.EmptyNonTailSegment) f;
            return "segment " + u(x.emptyStart()) + " recovers empty, but segment " + u(x.nextStart())
                    + " follows it; only the last segment may be empty (recoverable_bytes "
                    + u(x.recoverableBytes()) + ").";
        }
        if (f instanceof Refusal.Hole) {
            Refusal.Hole x = (Refusal.Hole) f;
            return "segment " + u(x.previousStart()) + " ends at offset " + u(x.previousEnd())
                    + " but the next segment starts at " + u(x.nextStart()) + ", and no matching .anchor admits "
                    + "the gap (recoverable_bytes " + u(x.recoverableBytes()) + ").";
        }
        if (f instanceof Refusal.StorageSizeMismatch) {
            Refusal.StorageSizeMismatch x = (Refusal.StorageSizeMismatch) f;
            return s + "the log holds " + u(x.onDiskBytes()) + " bytes where " + u(x.expectedBytes())
                    + " are expected.";
        }
        Refusal.CheckpointSizeMismatch x = (Refusal.CheckpointSizeMismatch) f;
        return s + "the checkpointed prefix verifies to " + u(x.validatedBytes()) + " bytes, not the checkpoint's "
                + u(x.expectedBytes()) + ".";
    }

    private static String u(long v) {
        return U64.str(v);
    }

    // ---- one segment -------------------------------------------------------------------------------------

    private SegmentStory segment(PartitionReport r, SegmentReport s, LogRegions regions) {
        List<Fact> f = new ArrayList<>();
        Refusal here = r.refusal() != null && r.refusal().segmentStart() == s.start()
                && s.result() == SegmentReport.Result.REFUSED ? r.refusal() : null;
        Survivors survivors = regions.survivors();
        List<SegmentMap.Span> map = SegmentMap.spans(regions.regions());
        // for a segment the load never reached, the engine measured the files as they are on disk
        long logLength = regions.logBytes();
        long indexLength = regions.indexBytes();
        f.add(new Fact("files", s.log().getFileName() + " " + Bytes.count(logLength) + "; "
                + s.index().getFileName() + " " + Bytes.count(indexLength) + " = "
                + U64.str(indexLength / IndexEntry.LENGTH) + " entries" + (indexLength % IndexEntry.LENGTH != 0
                ? " + " + indexLength % IndexEntry.LENGTH + " trailing bytes (a torn entry append)" : "")));
        if (s.result() == SegmentReport.Result.NOT_EXAMINED) {
            f.add(new Fact("at boot", "not examined: recovery stops at an earlier refusal before it reaches this "
                    + "segment"));
            otherMode(f, r, s);
            return new SegmentStory(s, map, f, null);
        }
        f.add(new Fact("at boot", atBoot(s, here, r)));
        f.add(new Fact("offsets", offsets(s, r, map, survivors)));
        f.add(new Fact("plan", plan(s, r)));
        otherMode(f, r, s);
        f.add(new Fact("next step", next(s, here, r, survivors)));
        // the spec's internals, for --detail
        f.add(Fact.detail("index claims", claims(s)));
        f.add(Fact.detail("log proves", proves(s)));
        if (s.scan() != null) {
            f.add(Fact.detail("index scan", scan(s)));
        }
        walk(f, s, s.fromLast(), s.last());
        walk(f, s, s.fromFirst(), s.first());
        walk(f, s, s.rebuild(), null);
        Walk refused = s.refusedWalk();
        walk(f, s, refused, refused == null || refused.name().equals("R()") ? null : anchorOf(s, refused));
        for (ProbeResult p : s.probes()) {
            f.add(Fact.detail("probe", probe(p, s)));
        }
        if (survivors != null) {
            f.add(Fact.detail("survivors", "from " + U64.str(survivors.from()) + " to " + U64.str(survivors.to())
                    + ": " + survivors.records() + " record(s) verify, offsets " + U64.str(survivors.firstOffset())
                    + ".." + U64.str(survivors.lastOffset()) + "; then " + survivors.stop()));
        }
        String stepBack = stepBack(s, r.durable());
        if (stepBack != null) {
            f.add(Fact.detail("step-back", stepBack));
        }
        f.add(Fact.detail("decision", decision(s, r.durable())));
        f.add(Fact.detail("result", result(s, here, r)));
        f.add(Fact.detail("unread", unread(s, r.durable())));
        return new SegmentStory(s, map, f, survivors);
    }

    /** What boot does with this segment, in words: keep it, cut the log, rebuild the index, fence it, refuse. */
    private static String atBoot(SegmentReport s, Refusal here, PartitionReport r) {
        boolean refused = r.outcome() == PartitionReport.Outcome.REFUSED;
        if (here != null) {
            return "the partition is refused here (" + here.variant() + "): " + plainName(here.variant());
        }
        String would;
        switch (s.result()) {
            case KEEP:
            case REBUILT:
                List<String> parts = new ArrayList<>();
                if (s.logCut() != null) {
                    parts.add("cuts the log from " + Bytes.count(s.logLength()) + " to " + Bytes.count(s.size())
                            + ", dropping " + Bytes.count(s.logLength() - s.size()));
                } else if (U64.lt(s.size(), s.logLength())) {
                    parts.add("reads only the WAL checkpoint's first " + Bytes.count(s.size()) + " and leaves the log "
                            + "whole: the " + Bytes.count(s.logLength() - s.size()) + " past it are the WAL's");
                }
                if (s.result() == SegmentReport.Result.REBUILT) {
                    parts.add("rebuilds the index (" + U64.str(s.entries()) + " -> " + s.rebuiltEntries().size()
                            + " entries)");
                } else if (s.indexLength() != s.indexSize()) {
                    parts.add("cuts the index from " + Bytes.count(s.indexLength()) + " to "
                            + Bytes.count(s.indexSize()));
                }
                would = parts.isEmpty() ? "keeps the segment as it is" : String.join(", and ", parts);
                break;
            case EMPTY:
                would = s.logLength() > 0 || s.indexLength() > 0 ? "moves both files into a fence directory and "
                        + "puts empty files in their place: nothing with messages verifies"
                        : "keeps the empty segment as it is";
                break;
            default:
                return refused ? "nothing: the partition is refused (see the verdict)" : "not examined";
        }
        if (refused) {
            return "nothing changes: the partition is refused elsewhere (see the verdict); otherwise boot "
                    + would.replaceFirst("^keeps", "would keep").replaceFirst("^cuts", "would cut")
                    .replaceFirst("^rebuilds", "would rebuild").replaceFirst("^moves", "would move");
        }
        return would;
    }

    /**
     * Which offsets the segment keeps and which bytes are at issue: the offsets that verify with their byte range,
     * then every region that is not plain verified data (torn, damaged, residue, survivors, foreign or stale
     * batches, fenced, not re-read at boot), with its bytes, from the engine's regions.
     */
    private static String offsets(SegmentReport s, PartitionReport r, List<SegmentMap.Span> map, Survivors sv) {
        List<String> parts = new ArrayList<>();
        boolean accepted = r.outcome() == PartitionReport.Outcome.ACCEPTED;
        switch (s.result()) {
            case KEEP:
            case REBUILT:
                if (s.size() == 0) {
                    parts.add("none: the log is empty");
                } else {
                    parts.add((accepted ? "kept: " : "would be kept: ") + range(s.start(), s.endOffset())
                            + " in bytes [0, " + U64.str(s.size()) + ") = " + Bytes.count(s.size()));
                }
                break;
            case EMPTY:
                parts.add("none: no record with messages verifies");
                break;
            default:
                Walk best = longestProving(s);
                if (best != null) {
                    long first = best.name().equals("R()") ? s.start()
                            : anchorOf(s, best) != null ? anchorOf(s, best).offset() : s.start();
                    parts.add("verify: " + range(first, best.endOffset()) + " in bytes [" + U64.str(best.from())
                            + ", " + U64.str(best.position()) + ") = " + Bytes.count(best.position() - best.from()));
                } else if (map.stream().noneMatch(m -> m.kind() == SegmentMap.Kind.VERIFIED)) {
                    parts.add("no record with messages verifies before the refusal");
                }
        }
        boolean walked = parts.stream().anyMatch(p -> p.startsWith("kept") || p.startsWith("would")
                || p.startsWith("verify"));
        for (SegmentMap.Span span : map) {
            if (span.kind() == SegmentMap.Kind.VERIFIED && walked || span.kind() == SegmentMap.Kind.UNEXAMINED
                    || span.bytes() == 0) {
                continue;
            }
            String what = "bytes [" + U64.str(span.from()) + ", " + U64.str(span.to()) + ") = "
                    + Bytes.count(span.bytes()) + ": " + span.kind().label;
            if (span.kind() == SegmentMap.Kind.SURVIVOR && sv != null && sv.firstOffset() >= 0) {
                what += ", " + range(sv.firstOffset(), sv.lastOffset()) + " in " + sv.records() + " record(s)";
            }
            parts.add(what);
        }
        return String.join("; ", parts);
    }

    /** {@code offset 7} or {@code offsets 0..119 (120)}. */
    private static String range(long first, long last) {
        if (first == last) {
            return "offset " + U64.str(first);
        }
        return "offsets " + U64.str(first) + ".." + U64.str(last) + " (" + U64.str(last - first + 1) + ")";
    }

    /** The index entry an anchored walk started from: the last entry for W(last), the first for W(first). */
    private static IndexEntry anchorOf(SegmentReport s, Walk w) {
        return w.name().equals("W(last)") ? s.last() : s.first();
    }

    private static String claims(SegmentReport s) {
        if (s.entries() == 0) {
            return "nothing: no whole entry, so the index proves and promises nothing";
        }
        if (s.first() == null || s.last() == null) {
            return s.entries() + " entries, not read on this path (RECOVERY 9 rebuilds the checkpoint segment's index "
                    + "from its log)";
        }
        IndexEntry a = s.first();
        IndexEntry b = s.last();
        String claim = "the log holds batches from offset " + U64.str(a.offset()) + " at byte " + U64.str(a.position())
                + " (" + Times.iso(a.timestamp()) + ") to a chunk starting with offset " + U64.str(b.offset())
                + " at byte " + U64.str(b.position()) + " (" + Times.iso(b.timestamp()) + ")";
        if (U64.gt(U64.addSat(b.position(), BatchHeader.LENGTH), s.logLength())) {
            claim += "; the log is too short for that last batch (" + U64.str(s.logLength()) + " bytes)";
        }
        return claim;
    }

    private static String proves(SegmentReport s) {
        switch (s.result()) {
            case KEEP:
                if (s.step() == DecisionStep.A7) {
                    return "[" + U64.str(s.last().position()) + ", " + U64.str(s.size()) + ") verifies from the last "
                            + "entry, through offset " + U64.str(s.endOffset()) + "; below byte "
                            + U64.str(s.last().position())
                            + " only the header at each entry was matched (no checksums)";
                }
                return "[0, " + U64.str(s.size()) + ") verifies: offsets " + U64.str(s.start()) + ".."
                        + U64.str(s.endOffset()) + ", " + Times.iso(s.startTimestamp()) + " .. "
                        + Times.iso(s.endTimestamp());
            case REBUILT:
                return "[0, " + U64.str(s.size()) + ") verifies: offsets " + U64.str(s.start()) + ".."
                        + U64.str(s.endOffset()) + ", " + Times.iso(s.startTimestamp()) + " .. "
                        + Times.iso(s.endTimestamp());
            case EMPTY:
                return s.logLength() == 0 ? "nothing (the log is empty)"
                        : "nothing: no record with messages verifies from byte 0";
            default:
                Walk best = longestProving(s);
                if (best == null) {
                    return "no walk proved a record with messages before the refusal";
                }
                return "[" + U64.str(best.from()) + ", " + U64.str(best.position()) + ") verifies (" + best.name()
                        + "), through offset " + U64.str(best.endOffset());
        }
    }

    private static String scan(SegmentReport s) {
        if (!s.scan().structural()) {
            return "inconsistent: " + s.scan().structuralReason();
        }
        if (!s.scan().mappings()) {
            return "entries ascend and start at (" + U64.str(s.start()) + ", 0), but entry "
                    + U64.str(s.scan().firstUnmatched()) + " does not match: " + s.scan().mappingReason();
        }
        return "entries ascend, start at (" + U64.str(s.start()) + ", 0), and each matches the batch header at its "
                + "position (header fields only, no checksum)";
    }

    private static void walk(List<Fact> f, SegmentReport s, Walk w, IndexEntry anchor) {
        if (w == null) {
            return;
        }
        String from = anchor != null ? "offset " + U64.str(anchor.offset()) + " at byte " + U64.str(w.from())
                : "byte " + U64.str(w.from());
        String what = w.records() + " record(s)" + (w.emptyRecords() > 0 ? " (" + w.emptyRecords() + " empty)" : "");
        if (w.provedMessages()) {
            long first = anchor != null ? anchor.offset() : s.start();
            what += ", offsets " + U64.str(first) + ".." + U64.str(w.endOffset());
        }
        String stop = w.stop().atEnd() ? "reached the end of the log at " + U64.str(w.position())
                : "stopped at " + U64.str(w.position()) + ": " + w.stop().describe();
        if (w.records() == 0 && U64.ge(w.from(), s.logLength())) {
            stop = "the position is at or past the end of the log (" + U64.str(s.logLength()) + " bytes): nothing to "
                    + "walk";
        }
        f.add(Fact.detail("walk " + w.name(), "from " + from + ": " + what + "; " + stop));
    }

    private static String probe(ProbeResult p, SegmentReport s) {
        String head = "residue [" + U64.str(p.damagePosition()) + ", " + U64.str(s.logLength()) + ") = "
                + U64.str(p.residue()) + " bytes: " + U64.str(p.candidates()) + " candidate position(s), "
                + U64.str(p.verifications()) + " verification(s) (" + U64.str(p.verifiedBytes()) + " bytes)";
        if (p.exhausted()) {
            return head + "; the budget ran out before the residue was classified";
        }
        if (p.hasSurvivor()) {
            return head + "; a record verifies at " + U64.str(p.survivor()) + ": survivor";
        }
        if (p.residue() <= BatchHeader.LENGTH) {
            return head + "; too short to hold a record: torn tail";
        }
        return head + "; nothing verifies in it: torn tail";
    }

    private static String stepBack(SegmentReport s, boolean durable) {
        AnchorSearch as = s.anchorSearch();
        if (as == null) {
            return null;
        }
        long depth = s.stepBack();
        if (depth == 0) {
            return "0: the log backs the last index entry";
        }
        String what = U64.str(depth) + ": the log backs " + U64.str(as.provableEntries()) + " of "
                + U64.str(s.entries())
                + " entries" + (as.provableEntries() > 0 ? " (up to byte " + U64.str(as.provablePosition()) + ")" : "")
                + ", searched " + U64.str(as.searchedEntries()) + " entries";
        if (!as.charged()) {
            what += "; measured for you, the server does not search in lenient mode";
        }
        return what + "; durable mode refuses a step-back above 1" + (depth > 1 && !durable
                ? " (so durability=persisted would refuse FsyncedLogLoss)" : "");
    }

    static String decision(SegmentReport s, boolean durable) {
        DecisionStep step = s.step();
        if (step == null) {
            if (s.scan() != null && s.scan().structural() && s.fromLast() == null) {
                return "A3: the walk from the last entry (both modes) met a verified record that refuses";
            }
            return "the segment was refused before a decision step was reached";
        }
        long lastPos = s.last() == null ? 0 : s.last().position();
        switch (step) {
            case NO_ENTRIES:
                return "no index entries: recovery walks the log from byte 0 and builds a new index (R())"
                        + (s.logLength() == 0 ? "; the log is empty, so there is nothing to walk" : "");
            case A2:
                return "A2: the index is inconsistent, so it is dropped and rebuilt from a byte-0 walk (R()); "
                        + "no durable-mode checks on this path";
            case A4:
                return "A4: no record with messages verifies from the last entry (byte " + U64.str(lastPos) + ")"
                        + (durable ? "; durable mode measures the step-back (more than 1 refuses FsyncedLogLoss), "
                        + "rebuilds from byte 0 (R()), and requires the rebuild to reach byte " + U64.str(lastPos)
                        + " (FsyncedRebuildShortfall)"
                        : "; lenient mode drops the index and rebuilds it from a byte-0 walk (R())");
            case A5:
                return "A5: the log backs the last entry, but entry " + U64.str(s.scan().firstUnmatched())
                        + " does not describe its batch, so the index is dropped and rebuilt (R())"
                        + (durable ? "; durable mode requires the rebuild to reach byte " + U64.str(lastPos) : "");
            case A6:
                if (s.result() == SegmentReport.Result.KEEP) {
                    return "A6: lenient mode re-verifies the whole log from byte 0 (W(first)); it reached the end, so"
                            + " the index is kept";
                }
                return "A6: lenient mode re-verifies the whole log from byte 0 (W(first)); it did not reach the end,"
                        + " so the index is replaced by a rebuild (R()) and the log is cut to what R() proves";
            case A7:
                return "A7: durable mode trusts what lies below the last entry (its chunks were fsynced) and "
                        + "verifies from byte " + U64.str(lastPos) + " (W(last))"
                        + (s.logCut() != null && s.result() == SegmentReport.Result.KEEP
                        ? "; it stopped at " + U64.str(s.size())
                        + " and the probe found no survivor, so the log is cut "
                        + "there and the index kept" : "; the index is kept");
            case CHECKPOINT:
                return "WAL checkpoint: the segment is rebuilt from its checkpointed prefix only";
            default:
                return step.label();
        }
    }

    private static String result(SegmentReport s, Refusal here, PartitionReport r) {
        switch (s.result()) {
            case KEEP:
                return "keep the index (" + U64.str(s.indexSize() / IndexEntry.LENGTH) + " entries"
                        + (s.indexLength() != s.indexSize() ? ", floored from " + U64.str(s.indexLength()) + " bytes"
                        : "")
                        + "); log " + U64.str(s.size()) + " bytes" + cut(s) + "; offsets " + U64.str(s.start()) + ".."
                        + U64.str(s.endOffset()) + statusSuffix(s, r);
            case REBUILT:
                return "rebuild the index (" + U64.str(s.entries()) + " -> " + s.rebuiltEntries().size()
                        + " entries at a 64 KiB stride); log " + U64.str(s.size()) + " bytes" + cut(s) + "; offsets "
                        + U64.str(s.start()) + ".." + U64.str(s.endOffset()) + statusSuffix(s, r);
            case EMPTY:
                return "recovered empty: nothing with messages verifies"
                        + (s.logLength() > 0 || s.indexLength() > 0 ? "; both files move into a fence directory and "
                        + "empty files take their place" : "; both files are already empty")
                        + statusSuffix(s, r);
            case REFUSED:
                return "REFUSED " + (here != null ? here : r.refusal());
            default:
                return "not examined";
        }
    }

    /** Of the segment's walks, the one that proved messages over the most bytes, or null. */
    private static Walk longestProving(SegmentReport s) {
        Walk best = null;
        for (Walk w : new Walk[]{s.rebuild(), s.fromFirst(), s.fromLast(), s.refusedWalk()}) {
            if (w != null && w.provedMessages()
                    && (best == null || U64.gt(w.position() - w.from(), best.position() - best.from()))) {
                best = w;
            }
        }
        return best;
    }

    private static String cut(SegmentReport s) {
        if (s.logCut() == null) {
            return U64.lt(s.size(), s.logLength()) ? " (of " + U64.str(s.logLength()) + "; the "
                    + U64.str(s.logLength() - s.size()) + " past the WAL checkpoint are kept)" : "";
        }
        return " (cut from " + U64.str(s.logLength()) + ", dropping " + U64.str(s.logLength() - s.size()) + " bytes)";
    }

    private static String statusSuffix(SegmentReport s, PartitionReport r) {
        if (r.outcome() == PartitionReport.Outcome.REFUSED) {
            return "; but the partition is refused (pass B), so none of this is applied";
        }
        return "; status " + s.status().json();
    }

    private static String plan(SegmentReport s, PartitionReport r) {
        List<String> ops = new ArrayList<>();
        for (PlannedOp op : s.operations()) {
            if (op instanceof PlannedOp.StageIndex || r.outcome() == PartitionReport.Outcome.ACCEPTED) {
                ops.add(describe(op));
            }
        }
        if (ops.isEmpty()) {
            return r.outcome() == PartitionReport.Outcome.ACCEPTED ? "no file changes"
                    : "no file changes: a refused partition keeps its segment files as they are";
        }
        String tail = r.outcome() == PartitionReport.Outcome.ACCEPTED ? ""
                : " (refused: only this scratch file is written, and the next boot deletes it)";
        return String.join("; then ", ops) + tail;
    }

    /** One planned operation in words with exact sizes. */
    public static String describe(PlannedOp op) {
        if (op instanceof PlannedOp.Delete) {
            PlannedOp.Delete d = (PlannedOp.Delete) op;
            return "delete " + name(d.path()) + " (" + d.reason() + ")";
        }
        if (op instanceof PlannedOp.StageIndex) {
            PlannedOp.StageIndex st = (PlannedOp.StageIndex) op;
            return "write " + name(st.path()) + " with " + st.entries().size() + " entries ("
                    + (long) st.entries().size() * IndexEntry.LENGTH + " bytes) first";
        }
        if (op instanceof PlannedOp.TruncateLog) {
            PlannedOp.TruncateLog t = (PlannedOp.TruncateLog) op;
            return "truncate " + name(t.path()) + " from " + U64.str(t.from()) + " to " + Bytes.count(t.to());
        }
        if (op instanceof PlannedOp.InstallIndex) {
            PlannedOp.InstallIndex i = (PlannedOp.InstallIndex) op;
            return "rename " + name(i.staging()) + " over " + name(i.path()) + " (" + U64.str(i.from()) + " -> "
                    + (long) i.entries().size() * IndexEntry.LENGTH + " bytes)";
        }
        if (op instanceof PlannedOp.TruncateIndex) {
            PlannedOp.TruncateIndex t = (PlannedOp.TruncateIndex) op;
            return "truncate " + name(t.path()) + " from " + U64.str(t.from()) + " to " + U64.str(t.to()) + " bytes";
        }
        if (op instanceof PlannedOp.Fence) {
            PlannedOp.Fence fe = (PlannedOp.Fence) op;
            return "move the .log (" + Bytes.count(fe.logBytes()) + ") and .index (" + Bytes.count(fe.indexBytes())
                    + ") of " + U64.str(fe.segmentStart()) + " into "
                    + (fe.fenceDirectory() == null ? "a fence directory (all 1000 names taken: boot fails)"
                    : fe.fenceDirectory().getFileName() + "/") + ", then create empty files in their place";
        }
        return op.kind() + " " + op.path();
    }

    private static String name(Path p) {
        return p == null ? "?" : ShellWords.shown(p.getFileName().toString());
    }

    private static String unread(SegmentReport s, boolean durable) {
        if (!s.unread().isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (Region g : s.unread()) {
                parts.add("[" + U64.str(g.from()) + ", " + U64.str(g.to()) + "): " + g.note());
            }
            return String.join("; ", parts);
        }
        if (s.result() == SegmentReport.Result.KEEP || s.result() == SegmentReport.Result.REBUILT) {
            return durable ? "nothing: every kept byte was verified on this path"
                    : "nothing: lenient mode verifies every byte at every boot";
        }
        return "-";
    }

    private static void otherMode(List<Fact> f, PartitionReport r, SegmentReport s) {
        PartitionReport o = r.otherMode();
        if (o == null) {
            return;
        }
        SegmentReport t = null;
        for (SegmentReport x : o.segments()) {
            if (x.start() == s.start()) {
                t = x;
            }
        }
        String text;
        if (t == null) {
            text = "not listed";
        } else if (t.result() == SegmentReport.Result.REFUSED && o.refusal() != null) {
            text = "the partition is refused here: " + o.refusal();
        } else if (t.result() == SegmentReport.Result.NOT_EXAMINED) {
            text = "not examined (an earlier segment is refused)";
        } else {
            List<String> ops = new ArrayList<>();
            for (PlannedOp op : t.operations()) {
                if (op instanceof PlannedOp.StageIndex || o.outcome() == PartitionReport.Outcome.ACCEPTED) {
                    ops.add(describe(op));
                }
            }
            text = o.outcome() == PartitionReport.Outcome.ACCEPTED
                    ? t.status().json() + (ops.isEmpty() ? ", no file changes" : ": " + String.join("; then ", ops))
                    : "would be " + (t.result() == SegmentReport.Result.KEEP ? "kept"
                    : t.result() == SegmentReport.Result.REBUILT ? "rebuilt" : "recovered empty")
                    + ", but the partition is refused"
                    + (ops.isEmpty() ? "; no file changes" : ": " + String.join("; then ", ops));
            if (!t.unread().isEmpty()) {
                Region g = t.unread().get(0);
                text += "; boot does not re-read bytes [" + U64.str(g.from()) + ", " + U64.str(g.to()) + ")";
            }
        }
        f.add(new Fact("other mode", mode(o.durable()) + ": " + text));
        if (t != null && t.step() != null) {
            f.add(Fact.detail("other decision", mode(o.durable()) + ": " + decision(t, o.durable())));
        }
    }

    private String next(SegmentReport s, Refusal here, PartitionReport r, Survivors survivors) {
        String log = ShellWords.quote(s.log());
        if (here != null) {
            switch (here.variant()) {
                case InteriorDamage:
                    return "The server will not boot this partition while damage sits in front of verified data"
                            + (survivors != null ? " (" + survivors.records() + " record(s) after the damage hold "
                            + "offsets " + U64.str(survivors.firstOffset()) + ".." + U64.str(survivors.lastOffset())
                            + ")" : "") + ". Look at the damage, then at what still verifies:"
                            + "\n$ segtool hexdump " + log + " "
                            + u(((Refusal.InteriorDamage) here).damagePosition()) + " 512" + records
                            + "\n$ segtool batches " + log + records;
                case UnverifiedResidue:
                    return "The bytes after the damage look like many overlapping record headers. Look at them:"
                            + "\n$ segtool hexdump " + log + " "
                            + u(((Refusal.UnverifiedResidue) here).damagePosition()) + " 512" + records;
                case OffsetDiscontinuity:
                case ForeignBatch:
                    return "Check that the files belong in this directory; batches shows offsets and partition ids "
                            + "record by record:\n$ segtool batches " + log + records;
                case FsyncedLogLoss:
                case FsyncedRebuildShortfall:
                    return "confirm the topic really has durability=persisted (the other mode's verdict is above); if "
                            + "it does, acknowledged data is missing from this log";
                default:
                    break;
            }
        }
        if (r.outcome() == PartitionReport.Outcome.REFUSED) {
            if (r.refusal() != null && (r.refusal().variant() == Refusal.Variant.Hole
                    || r.refusal().variant() == Refusal.Variant.EmptyNonTailSegment)) {
                return "Look for a missing segment or anchor in the chain:\n$ segtool segments "
                        + ShellWords.quote(r.partition().directory()) + records;
            }
            return "the partition is refused elsewhere (see the verdict); this segment is not the cause";
        }
        if (s.operations().isEmpty()) {
            return "nothing to do: boot accepts this segment as it is";
        }
        if (s.result() == SegmentReport.Result.EMPTY) {
            return "boot applies the plan by itself; the fenced files stay in the fence directory, untouched";
        }
        if (s.logCut() != null) {
            return "Boot applies the plan by itself. To keep the " + U64.str(s.logLength() - s.size()) + " bytes it "
                    + "cuts, copy " + s.log().getFileName() + " aside first; to see them:\n$ segtool hexdump " + log
                    + " " + U64.str(s.size()) + records;
        }
        return "boot applies the plan by itself; nothing that verifies is lost";
    }
}
