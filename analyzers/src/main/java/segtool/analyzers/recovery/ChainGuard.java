package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/**
 * Pass B of RECOVERY 5, the chain guard: over the planned segments, sums {@code recoverable_bytes} and checks each
 * adjacent pair, refusing EmptyNonTailSegment or Hole at the first failing pair. A gap between two segments is
 * admitted only by the later segment's anchor ({@link #admits}).
 */
public final class ChainGuard {
    private ChainGuard() {
    }

    /**
     * Anchor admission, RECOVERY 5 step 2.4: the gap from {@code previousEnd} (the end offset of the segment
     * starting at {@code previousStart}) to {@code nextStart} is admitted iff {@code previousEnd < nextStart} and a
     * valid {@code anchor} names exactly this pair: {@code planted_start = nextStart}, {@code sealed_start =
     * previousStart}, {@code sealed_end = previousEnd}. Overlaps and backward pairs are never admitted. The caller
     * has already found the pair not contiguous.
     */
    public static boolean admits(long previousStart, long previousEnd, long nextStart, AnchorRecord anchor) {
        return U64.lt(previousEnd, nextStart) && anchor != null
                && anchor.plantedStart() == nextStart && anchor.sealedStart() == previousStart
                && anchor.sealedEnd() == previousEnd;
    }

    /** RECOVERY 5 step 2.2: {@code previousEnd + 1 = nextStart}, where an end offset of 2^64-1 never matches. */
    public static boolean contiguous(long previousEnd, long nextStart) {
        return previousEnd != U64.MAX && previousEnd + 1 == nextStart;
    }

    /**
     * Reads an anchor file as pass B does (RECOVERY 5 step 2.3): null when it is missing, not 40 bytes long, or
     * fails its magic or checksum (F 6); any other stat or read error is an I/O error naming the file.
     */
    public static AnchorRecord readAnchor(Path p) throws IOException {
        try {
            segtool.formats.io.RegularFile.require(p);
            if (Files.size(p) != AnchorRecord.LENGTH) {
                return null;
            }
            return AnchorRecord.decode(Files.readAllBytes(p));
        } catch (NoSuchFileException missing) {
            return null;
        } catch (segtool.formats.io.RegularFile.NotRegular special) {
            throw special;
        } catch (IOException e) {
            throw IoFailure.raise(p, IoFailure.READ, e);
        }
    }

    /** RECOVERY 5 step 1: the sum of the planned sizes, the tail included (saturating). */
    static long recoverableBytes(List<SegmentDraft> segments) {
        long recoverable = 0;
        for (SegmentDraft s : segments) {
            recoverable = U64.addSat(recoverable, s.size);
        }
        return recoverable;
    }

    /** Runs pass B over the planned segments; anchors the sweep deletes read as missing. */
    static void run(List<SegmentDraft> segments, long recoverable, Path dir, Sweep sweep)
            throws IOException, Refusal.Raised {
        for (int i = 1; i < segments.size(); i++) {
            SegmentDraft prev = segments.get(i - 1);
            SegmentDraft next = segments.get(i);
            if (prev.size == 0) {
                throw refused(prev, new Refusal.EmptyNonTailSegment(prev.start, next.start, recoverable));
            }
            if (contiguous(prev.endOffset, next.start)) {
                continue;
            }
            Path anchorFile = SegmentFiles.anchor(dir, next.start);
            AnchorRecord anchor;
            try {
                anchor = sweep.deletes(anchorFile) ? null : readAnchor(anchorFile);
            } catch (IOException e) {
                next.status = SegmentReport.Status.IO_ERROR;   // the anchor is the later segment's (RECOVERY 7.3)
                throw e;
            }
            if (!admits(prev.start, prev.endOffset, next.start, anchor)) {
                throw refused(next, new Refusal.Hole(prev.start, prev.endOffset, next.start, recoverable));
            }
            next.anchoredGap = anchor;
        }
    }

    /**
     * Marks the segment a chain refusal is about: the empty one, or the later one of the pair. By position, not by
     * start offset, which duplicate start offsets (RECOVERY 3) make ambiguous.
     */
    private static Refusal.Raised refused(SegmentDraft seg, Refusal refusal) {
        seg.status = SegmentReport.Status.REFUSED;
        seg.refusal = refusal;
        return new Refusal.Raised(refusal);
    }
}
