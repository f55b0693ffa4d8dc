package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;

/**
 * One segment's log opened read-only at the length {@code L} boot found, with the primitive checks of RECOVERY 2.3
 * that every pass is built from: {@link #headerAt HeaderAt(p)}, {@link #verify Verify(p, n)} and
 * {@link #mismatch Matches(o, t, p)}. Bytes past {@code L} are never read, even if the file has grown. Memory is
 * bounded by the read windows of {@link RecoveryOptions}, never by the log's size.
 */
public final class SegmentLog implements AutoCloseable {
    private static final int HEADER_WINDOW = 4096;

    private final Path path;
    private final long start;
    private final long partitionId;
    private final long length;
    private final long maxBatchBytes;
    private final SegmentChannel log;
    private final SegmentChannel headers;
    private final WalkVerifier verifier;

    private SegmentLog(Path path, long start, long partitionId, long length, long maxBatchBytes,
                       SegmentChannel log, SegmentChannel headers, WalkVerifier verifier) {
        this.path = path;
        this.start = start;
        this.partitionId = partitionId;
        this.length = length;
        this.maxBatchBytes = maxBatchBytes;
        this.log = log;
        this.headers = headers;
        this.verifier = verifier;
    }

    /**
     * Opens the log of segment {@code start} of partition {@code partitionId}, to be read as {@code length} bytes
     * long. A length of 0 opens nothing. A log that cannot be opened, or is now shorter than {@code length}, is an
     * I/O error naming the file.
     */
    public static SegmentLog open(Path path, long start, long partitionId, long length, RecoveryOptions options)
            throws IOException {
        if (length <= 0) {
            return new SegmentLog(path, start, partitionId, length, options.maxBatchBytes(), null, null, null);
        }
        SegmentChannel log = null;
        SegmentChannel headers = null;
        try {
            log = SegmentChannel.open(path, options.window(), length);
            headers = SegmentChannel.open(path, HEADER_WINDOW, length);
        } catch (NoSuchFileException e) {
            closeQuietly(log, headers);
            throw IoFailure.raise(path, IoFailure.OPEN, "vanished while being judged");
        } catch (IOException e) {
            closeQuietly(log, headers);
            throw IoFailure.raise(path, IoFailure.OPEN, e);
        }
        try {
            if (log.size() < length) {
                throw IoFailure.raise(path, IoFailure.READ, "shrank while being judged (" + log.size() + " < "
                        + length + " bytes)");
            }
            WalkVerifier verifier = WalkVerifier.create(log, options.threads(), options.window(),
                    options.maxBatchBytes(), options.mapped());
            return new SegmentLog(path, start, partitionId, length, options.maxBatchBytes(), log, headers, verifier);
        } catch (IOException e) {
            closeQuietly(log, headers);
            throw e;
        }
    }

    private static void closeQuietly(SegmentChannel... channels) {
        for (SegmentChannel c : channels) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // the open failed already; that failure is the one reported
                }
            }
        }
    }

    public Path path() {
        return path;
    }

    /** {@code S}, the segment's start offset. */
    public long start() {
        return start;
    }

    /** The partition id every batch of this log must carry. */
    public long partitionId() {
        return partitionId;
    }

    /** {@code L}, the length the log is read as. */
    public long length() {
        return length;
    }

    /** {@code MAXB}: the largest {@code batch_length} a header may claim. */
    public long maxBatchBytes() {
        return maxBatchBytes;
    }

    /**
     * HeaderAt(p) of RECOVERY 2.3: none if {@code p + 256 > L}, if the 256 bytes do not decode (F 2.2), or if
     * {@code batch_length > MAXB}; otherwise the header. No checksum is computed.
     */
    public HeaderAt headerAt(long p) throws IOException {
        return headerAt(headers, p);
    }

    /** HeaderAt through the walk's own channel, which the verifier may share. */
    HeaderAt walkHeaderAt(long p) throws IOException {
        return headerAt(verifier == null ? headers : verifier.walkHeaders(), p, verifier != null);
    }

    private HeaderAt headerAt(SegmentChannel ch, long pos) throws IOException {
        return headerAt(ch, pos, false);
    }

    /** HeaderAt through {@code ch}, or through the verifier's windows when {@code inWalk} and they hold it. */
    private HeaderAt headerAt(SegmentChannel ch, long pos, boolean inWalk) throws IOException {
        if (U64.gt(U64.addSat(pos, BatchHeader.LENGTH), length)) {
            return new HeaderAt(pos, null,
                    new Stop(Stop.Kind.HEADER_TRUNCATED, pos, null, U64.str(U64.subSat(length, pos))));
        }
        int i = inWalk ? verifier.walkHeader(pos) : -1;
        if (i >= 0) {
            try {
                return headerIn(verifier.walkHeaderBuffer(), i, pos);
            } catch (InternalError e) {
                // a fault reading a mapped window: the file shrank under it, or the device failed
                throw verifier.walkHeaderChannel().fault(e);
            }
        }
        i = ch.at(pos, BatchHeader.LENGTH);
        return headerIn(ch.buffer(), i, pos);
    }

    /** HeaderAt of the 256 bytes at {@code i} of {@code b}, log position {@code pos} (room already checked). */
    private HeaderAt headerIn(ByteBuffer b, int i, long pos) {
        Defect d = BatchHeader.check(b, i, pos);
        if (d != null) {
            return new HeaderAt(pos, null, new Stop(Stop.Kind.HEADER_INVALID, pos, d, null));
        }
        BatchHeader h = BatchHeader.read(b, i);
        if (U64.gt(h.batchLength(), maxBatchBytes)) {
            return new HeaderAt(pos, null, new Stop(Stop.Kind.LENGTH_OVER_MAX, pos,
                    Defect.of(Defect.Code.LENGTH_OVER_MAX, pos, 0, maxBatchBytes, h.batchLength()),
                    U64.str(h.batchLength())));
        }
        return new HeaderAt(pos, h, null);
    }

    /**
     * The header at {@code p} if its 256 bytes decode under F 2.2, whatever {@code batch_length} claims (no
     * {@code MAXB} filter, no room check); null otherwise. For evidence: how far a damaged record claims to reach.
     */
    BatchHeader decodedAt(long p) throws IOException {
        if (U64.gt(U64.addSat(p, BatchHeader.LENGTH), length)) {
            return null;
        }
        int i = headers.at(p, BatchHeader.LENGTH);
        return BatchHeader.check(headers.buffer(), i, p) == null ? BatchHeader.read(headers.buffer(), i) : null;
    }

    /**
     * Verify(p, n) of RECOVERY 2.3: null when {@code p + n <= L} and the {@code n} bytes at {@code p} pass record
     * verification (F 2.5), otherwise the first defect.
     */
    public Defect verify(long p, long n) throws IOException {
        if (U64.gt(U64.addSat(p, n), length)) {
            return Defect.of(Defect.Code.RUNS_PAST_EOF, p, 0, U64.subSat(length, p), n);
        }
        return verifyAside(p, n);
    }

    /**
     * Verify(p, n) for a reader that asks for records in log order, as a listing does: the same answer as
     * {@link #verify}, through the walk's ring of windows (records verified ahead on the other cores) when the log
     * was opened with more than one thread. A record asked for out of order starts the ring again from there.
     */
    public Defect verifyInOrder(long p, long n) throws IOException {
        if (U64.gt(U64.addSat(p, n), length)) {
            return Defect.of(Defect.Code.RUNS_PAST_EOF, p, 0, U64.subSat(length, p), n);
        }
        return verifier.verify(p, n);
    }

    /** Verify one record out of walk order (probe survivors, anchor search); the caller checked the bounds. */
    Defect verifyAside(long p, long n) throws IOException {
        return verifier.verifyAside(p, n);
    }

    /** Verify the record a walk asks for next, in log order; the caller checked the bounds. */
    Defect verifyInWalk(long p, long n) throws IOException {
        return verifier.verify(p, n);
    }

    /** A walk starts at {@code p}: records will be asked for in order from there. */
    void startWalk(long p) {
        if (verifier != null) {
            verifier.startWalk(p);
        }
    }

    /** The channel the probe reads candidates through. */
    SegmentChannel window() {
        return log;
    }

    /**
     * Matches(o, t, p) of RECOVERY 2.3 for index entry {@code e}: null when it holds, otherwise why not, in one
     * sentence. Header-level only: no checksum is computed.
     */
    public String mismatch(IndexEntry e) throws IOException {
        long p = e.position();
        if (U64.gt(U64.addSat(p, BatchHeader.LENGTH), length) || p + BatchHeader.LENGTH < p) {
            return "position " + U64.str(p) + " leaves no room for a header in a log of " + length + " bytes";
        }
        int i = headers.at(p, BatchHeader.LENGTH);
        ByteBuffer b = headers.buffer();
        Defect d = BatchHeader.check(b, i, p);
        if (d != null) {
            return "no header at " + U64.str(p) + ": " + d.describe();
        }
        BatchHeader h = BatchHeader.read(b, i);
        if (h.partitionId() != partitionId) {
            return "batch at " + U64.str(p) + " carries partition_id " + U64.str(h.partitionId());
        }
        if (h.baseOffset() != e.offset()) {
            return "batch at " + U64.str(p) + " has base_offset " + U64.str(h.baseOffset()) + ", entry says "
                    + U64.str(e.offset());
        }
        if (h.baseTimestamp() != e.timestamp()) {
            return "batch at " + U64.str(p) + " has base_timestamp " + U64.str(h.baseTimestamp())
                    + ", entry says " + U64.str(e.timestamp());
        }
        if (h.messageCount() == 0) {
            return "batch at " + U64.str(p) + " is empty";
        }
        if (U64.gt(h.batchLength(), maxBatchBytes)) {
            return "batch at " + U64.str(p) + " claims " + U64.str(h.batchLength()) + " bytes (over the max)";
        }
        if (U64.gt(U64.addSat(p, h.batchLength()), length)) {
            return "batch at " + U64.str(p) + " runs past the end of the log";
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            if (verifier != null) {
                verifier.close();
            }
        } finally {
            try {
                if (headers != null) {
                    headers.close();
                }
            } finally {
                if (log != null) {
                    log.close();
                }
            }
        }
    }
}
