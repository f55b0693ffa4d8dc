package segtool.formats.fuzz;

import static segtool.formats.fuzz.Fuzz.allocated;
import static segtool.formats.fuzz.Fuzz.assertAllocatedAtMost;
import static segtool.formats.fuzz.Fuzz.check;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import segtool.formats.SpecVectors;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.FrameHeader;
import segtool.formats.log.Message;
import segtool.formats.log.MessageView;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

/**
 * Batch records in memory (F 2.2-2.5): the verifier, the frame decoder behind {@link MessageView}, user headers and
 * LZ4 payloads as a display reaches them, and the encoder. Each input is one whole record as a caller holds it.
 *
 * <p>Invariants: the verdict depends only on the bytes of the record (the same record embedded among other bytes,
 * on or off heap, gets the same defect); every defect lies inside the record; a verify allocates no more than a few
 * objects whatever the lengths claim, a decode no more than its copy cap per frame present; the verifier and the
 * decoder agree on the first bad frame; a record that verifies re-encodes to the same bytes.
 */
class RecordFuzzTest {
    /** Where the records are said to sit in the log: far from 0, so a position computed from 0 shows. */
    private static final long AT = 1L << 40;
    private static final int MAX_COPY = 64;
    /** A verify makes a defect and little else; the counter itself costs about 1 KiB a reading. */
    private static final long VERIFY_BUDGET = 8192;
    private static final int LZ4_CAP = 1 << 20;
    private static final RecordVerifier VERIFIER = new RecordVerifier();
    private static final Set<Defect.Code> HEADER_DEFECTS = EnumSet.of(Defect.Code.HEADER_TRUNCATED,
            Defect.Code.LENGTH_TOO_SMALL, Defect.Code.RESERVED_NOT_ZERO, Defect.Code.RUNS_PAST_EOF);

    private static boolean warm;

    /**
     * Class loading and first-call costs are not the input's: pay them before any allocation is counted. Done on the
     * first input, not at class load, since the fuzzer instruments the classes between the two.
     */
    private static void warmUp() {
        if (warm) {
            return;
        }
        warm = true;
        Fuzz.warmUp(() -> {
            for (byte[] r : List.of(SpecVectors.a(), SpecVectors.b(), SpecVectors.c(), new byte[0], new byte[300])) {
                for (int cut : new int[]{r.length, r.length / 2, 255}) {
                    byte[] part = Arrays.copyOf(r, Math.min(cut, r.length));
                    for (int flip = 0; flip < part.length; flip += 41) {
                        byte[] damaged = part.clone();
                        damaged[flip] ^= 1;
                        judgeQuietly(damaged);
                    }
                    judgeQuietly(part);
                    if (part.length >= BatchHeader.LENGTH) {
                        stamp(part);
                        judgeQuietly(part);
                    }
                }
            }
        });
    }

    private static void judgeQuietly(byte[] r) {
        try {
            Defect d = VERIFIER.verify(ByteBuffer.wrap(r), 0, r.length, AT);
            if (d != null) {
                d.describe();
            }
            MessageView.decode(ByteBuffer.wrap(r), 0, r.length, AT, MAX_COPY, v -> {
                touch(v);
                return true;
            });
        } catch (IOException | RuntimeException e) {
            // warming up only
        }
    }

    /** Any bytes, taken as a record. */
    @FuzzTest(maxDuration = "12h")
    void verify(byte[] data) throws IOException {
        warmUp();
        judge(data);
    }

    /**
     * Any bytes made into a record whose lengths, reserved bytes and checksums hold wherever the frames can be
     * framed, so the fuzzer reaches what lies behind the checksums. It must verify when the frames tile the blob, and
     * otherwise fail at exactly the frame the stamping stopped at.
     */
    @FuzzTest(maxDuration = "12h")
    void verifyStamped(byte[] data) throws IOException {
        warmUp();
        if (data.length < BatchHeader.LENGTH) {
            return;
        }
        byte[] record = data.clone();
        long frames = stamp(record);
        Defect d = judge(record);
        if (frames >= 0) {
            check(d == null, "a stamped record whose frames tile the blob fails: " + d);
        } else {
            check(d != null && (d.code() == Defect.Code.FRAME_TRUNCATED
                    || d.code() == Defect.Code.FRAME_OVERRUNS_BLOB) && d.index() == -frames - 1,
                    "a stamped record broken at frame " + (-frames - 1) + " fails with " + d);
        }
    }

    /** Verifies, cross-checks and round-trips one record; returns its defect. */
    static Defect judge(byte[] data) throws IOException {
        long before = allocated();
        Defect d = VERIFIER.verify(ByteBuffer.wrap(data), 0, data.length, AT);
        assertAllocatedAtMost(before, VERIFY_BUDGET, "verify");

        byte[] padded = new byte[data.length + 77];
        Arrays.fill(padded, (byte) 0xA5);
        System.arraycopy(data, 0, padded, 29, data.length);
        Defect embedded = VERIFIER.verify(ByteBuffer.wrap(padded), 29, data.length, AT);
        check(Objects.equals(d, embedded), "verdict depends on bytes outside the record: " + d + " vs " + embedded);
        ByteBuffer direct = ByteBuffer.allocateDirect(Math.max(1, data.length));
        direct.put(0, data);
        Defect offHeap = VERIFIER.verify(direct, 0, data.length, AT);
        check(Objects.equals(d, offHeap), "verdict differs off heap: " + d + " vs " + offHeap);

        if (d != null) {
            check(U64.ge(d.position(), AT) && U64.le(d.position(), AT + data.length), "defect outside the record: "
                    + d);
            check(d.describe() != null, "no description");
            if (HEADER_DEFECTS.contains(d.code())) {
                check(d.code() == Defect.Code.HEADER_TRUNCATED || data.length >= BatchHeader.LENGTH, "header defect "
                        + d + " on a short record");
                return d;
            }
        }
        check(data.length >= BatchHeader.LENGTH && BatchHeader.decodes(ByteBuffer.wrap(data), 0)
                && BatchHeader.read(ByteBuffer.wrap(data), 0).batchLength() == data.length,
                "the frame walk was reached with a header that does not frame the record: " + d);

        List<MessageView> views = new ArrayList<>();
        before = allocated();
        Defect walk = MessageView.decode(ByteBuffer.wrap(data), 0, data.length, AT, MAX_COPY, views::add);
        assertAllocatedAtMost(before, 16384 + 1024L * views.size(), "decode");
        MessageView firstBad = null;
        long expectedPosition = AT + BatchHeader.LENGTH;
        BatchHeader header = BatchHeader.read(ByteBuffer.wrap(data), 0);
        for (MessageView v : views) {
            check(v.position() == expectedPosition, "frame " + v.index() + " at " + v.position() + ", expected "
                    + expectedPosition);
            check(v.offset() == U64.addSat(header.baseOffset(), v.frame().offsetDelta()), "offset");
            check(v.payload().length <= MAX_COPY && v.userHeaders().length <= MAX_COPY, "copy cap");
            expectedPosition += v.frame().frameLength();
            check(expectedPosition <= AT + data.length, "frame past the record");
            if (firstBad == null && !v.checksumMatches()) {
                firstBad = v;
            }
            touch(v);
        }
        if (firstBad != null) {
            check(d != null && d.code() == Defect.Code.MESSAGE_CHECKSUM_MISMATCH && d.index() == firstBad.index()
                    && d.position() == firstBad.position(), "decoder's first bad frame " + firstBad.index()
                    + " but the verifier says " + d);
        } else if (walk != null) {
            check(walk.equals(d), "decoder says " + walk + ", verifier " + d);
        } else {
            check(d == null || d.code() == Defect.Code.BATCH_CHECKSUM_MISMATCH, "frames decode, verifier says " + d);
            check(views.size() == header.messageCount(), "decoded " + views.size() + " of " + header.messageCount());
        }
        if (d == null) {
            roundTrip(data, header);
        }
        return d;
    }

    /** What a display does with a message: headers, their values, the plain payload. None of it may throw. */
    private static void touch(MessageView v) {
        UserHeaders.Decoded headers = v.headers();
        for (UserHeaders.Header h : headers.headers()) {
            Objects.requireNonNull(h.key().display());
            Objects.requireNonNull(h.value().display());
            Objects.requireNonNull(h.value().kindName());
        }
        try {
            byte[] plain = v.plainPayload(LZ4_CAP);
            check(plain.length <= LZ4_CAP, "plain payload over the cap");
        } catch (Payloads.DecodeException expected) {
            check(expected.getMessage() != null, "no message");
        }
        Objects.requireNonNull(v.id());
    }

    /** A verified record whose offset deltas are 0, 1, ... is exactly what the encoder makes of its messages. */
    private static void roundTrip(byte[] data, BatchHeader header) {
        List<Message> messages = new ArrayList<>();
        boolean encodable = true;
        List<MessageView> views = new ArrayList<>();
        Defect walk = MessageView.decode(ByteBuffer.wrap(data), 0, data.length, AT, data.length, views::add);
        check(walk == null, "a verified record does not decode: " + walk);
        for (MessageView v : views) {
            check(v.checksumMatches() && v.payloadComplete() && v.userHeadersComplete(), "incomplete view");
            encodable &= v.frame().offsetDelta() == v.index();
            messages.add(new Message(v.frame().idLow(), v.frame().idHigh(), v.frame().timestampDelta(), v.payload(),
                    v.userHeaders()));
        }
        if (encodable) {
            byte[] again = RecordEncoder.encode(header.partitionId(), header.baseOffset(), header.baseTimestamp(),
                    header.originTimestamp(), messages);
            check(Arrays.equals(data, again), "decode -> encode changes the record");
        }
    }

    /**
     * Makes {@code r} as verifiable as its frames allow: batch_length the array's length, reserved bytes zero, each
     * frame that fits its reserved bytes zero and its checksum right, message_count the number of such frames and
     * the batch checksum over them.
     *
     * @return the number of frames when they tile the blob, else {@code -(index of the frame that does not fit) - 1}
     */
    static long stamp(byte[] r) {
        LittleEndian.putU64(r, BatchHeader.BATCH_LENGTH_OFFSET, r.length);
        Arrays.fill(r, BatchHeader.RESERVED_OFFSET, BatchHeader.LENGTH, (byte) 0);
        List<Long> sums = new ArrayList<>();
        int pos = BatchHeader.LENGTH;
        boolean tiles = true;
        while (pos < r.length) {
            if (r.length - pos < FrameHeader.LENGTH) {
                tiles = false;
                break;
            }
            LittleEndian.putU64(r, pos + FrameHeader.RESERVED_OFFSET, 0);
            long length = FrameHeader.LENGTH + LittleEndian.u32(r, pos + FrameHeader.PAYLOAD_LENGTH_OFFSET)
                    + LittleEndian.u32(r, pos + FrameHeader.USER_HEADERS_LENGTH_OFFSET);
            if (length > r.length - pos) {
                tiles = false;
                break;
            }
            long sum = Xxh3.hash(r, pos + FrameHeader.ID_OFFSET, (int) length - FrameHeader.ID_OFFSET);
            LittleEndian.putU64(r, pos + FrameHeader.CHECKSUM_OFFSET, sum);
            sums.add(sum);
            pos += (int) length;
        }
        LittleEndian.putU32(r, BatchHeader.MESSAGE_COUNT_OFFSET, sums.size());
        byte[] cover = new byte[BatchHeader.COVERED_META_LENGTH + 8 * sums.size()];
        System.arraycopy(r, 0, cover, 0, 40);
        LittleEndian.putU32(cover, 40, sums.size());
        for (int i = 0; i < sums.size(); i++) {
            LittleEndian.putU64(cover, BatchHeader.COVERED_META_LENGTH + 8 * i, sums.get(i));
        }
        LittleEndian.putU64(r, BatchHeader.CHECKSUM_OFFSET, Xxh3.hash(cover));
        return tiles ? sums.size() : -sums.size() - 1;
    }
}
