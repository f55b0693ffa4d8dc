package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/**
 * The plan of pass C (RECOVERY 6): for each segment, in the order of 6.1, the file operations that make the disk
 * match pass A's bounds (fence, truncate the log, install or truncate the index), and the segment's scan status.
 * Nothing is performed. A transient failure pass C would meet (all fence names taken, 6.2) is kept and raised only
 * if passes A and B accept.
 */
final class PassCPlan {
    private final Path dir;
    private final Set<Path> plannedFences = new HashSet<>();
    private IoFailure failure;
    private SegmentDraft failedSegment;

    PassCPlan(Path dir) {
        this.dir = dir;
    }

    /** The segment whose pass C step would fail, or null. */
    SegmentDraft failedSegment() {
        return failedSegment;
    }

    /** The transient failure pass C would meet, or null. */
    IoFailure failure() {
        return failure;
    }

    /** Plans pass C for {@code seg}; {@code checkpointSegment} skips the log truncation (RECOVERY 9). */
    void plan(SegmentDraft seg, boolean checkpointSegment) {
        long logNow = seg.logLength;
        long indexNow = seg.indexLength;
        boolean floored = false;
        if (seg.recoveredEmpty && (logNow > 0 || indexNow > 0)) {
            Path fence = nextFence();
            if (fence == null && failure == null) {
                failedSegment = seg;
                failure = new IoFailure(SegmentFiles.fence(dir, 0), IoFailure.CREATE,
                        IoFailure.kindOf(IoFailure.CREATE), "all " + RecoveryEngine.FENCED_DIR_PROBE_LIMIT
                        + " fence directory names are taken (" + SegmentFiles.fence(dir, 0).getFileName() + " .. "
                        + SegmentFiles.fence(dir, RecoveryEngine.FENCED_DIR_PROBE_LIMIT - 1).getFileName()
                        + "); pass C cannot fence segment " + U64.str(seg.start) + " and the boot fails");
            }
            seg.operations.add(new PlannedOp.Fence(seg.log, seg.start, fence, logNow, indexNow));
            logNow = 0;
            indexNow = 0;
        }
        if (!checkpointSegment && logNow != seg.size) {
            seg.operations.add(new PlannedOp.TruncateLog(seg.log, seg.start, logNow, seg.size));
        }
        IndexContent rebuiltVsDisk = IndexContent.DIFFERENT;
        if (seg.result == SegmentReport.Result.REBUILT) {
            seg.operations.add(new PlannedOp.InstallIndex(seg.index, seg.start,
                    SegmentFiles.indexStaging(dir, seg.start), seg.rebuiltEntries, indexNow));
            rebuiltVsDisk = compare(seg.index, indexNow, seg.rebuiltEntries);
            seg.indexUnchanged = rebuiltVsDisk == IndexContent.SAME;
        } else if (seg.indexUnreadable != null) {
            // 6.2 Truncate stats the file first: that stat fails, and so does the boot (7.3)
            if (failure == null) {
                failedSegment = seg;
                failure = seg.indexUnreadable;
            }
        } else if (indexNow != seg.indexSize) {
            seg.operations.add(new PlannedOp.TruncateIndex(seg.index, seg.start, indexNow, seg.indexSize));
            floored = seg.result == SegmentReport.Result.KEEP;
        }
        // status by content (RECOVERY 7.2): a rebuilt index whose bytes equal the index already there is clean
        if (seg.recoveredEmpty) {
            seg.status = SegmentReport.Status.RECOVERED_EMPTY;
        } else if ((!checkpointSegment && seg.size != seg.logLength) || floored
                || rebuiltVsDisk == IndexContent.SAME_BUT_PARTIAL_TAIL) {
            seg.status = SegmentReport.Status.TRUNCATED;
        } else if (seg.result == SegmentReport.Result.REBUILT && rebuiltVsDisk == IndexContent.DIFFERENT) {
            seg.status = SegmentReport.Status.INDEX_REBUILT;
        } else {
            seg.status = SegmentReport.Status.CLEAN;
        }
    }

    /** How a rebuilt index compares with the index file on disk. */
    private enum IndexContent {
        /** The same bytes: the re-install changes nothing. */
        SAME,
        /** The same whole entries, and the file has a partial trailing entry the install drops (a truncation). */
        SAME_BUT_PARTIAL_TAIL,
        DIFFERENT
    }

    /**
     * Compares {@code entries} with the {@code length} bytes of {@code index}. Only an index of the same number of
     * whole entries is read, and pass A has already opened it; should that read fail now, the index counts as
     * different (the server does not read it here, so the failure is not the verdict).
     */
    private static IndexContent compare(Path index, long length, List<IndexEntry> entries) {
        long whole = (long) entries.size() * IndexEntry.LENGTH;
        if (length / IndexEntry.LENGTH != entries.size()) {
            return IndexContent.DIFFERENT;
        }
        try (IndexFile file = IndexFile.open(index)) {
            if (file.length() != length) {
                return IndexContent.DIFFERENT;
            }
            for (int i = 0; i < entries.size(); i++) {
                if (!file.entry(i).equals(entries.get(i))) {
                    return IndexContent.DIFFERENT;
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return IndexContent.DIFFERENT;
        }
        return length == whole ? IndexContent.SAME : IndexContent.SAME_BUT_PARTIAL_TAIL;
    }

    /** The first free {@code <S>.fenced.<n>} name (6.2) not already planned for another segment, or null. */
    private Path nextFence() {
        for (int k = 0; k < RecoveryEngine.FENCED_DIR_PROBE_LIMIT; k++) {
            Path candidate = SegmentFiles.fence(dir, k);
            // create_dir fails with "exists" for any entry of that name, a dangling symlink included
            if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS) && plannedFences.add(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
