package segtool.formats.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.LogCursor;
import segtool.formats.log.Message;
import segtool.formats.log.MessageView;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;
import segtool.formats.naming.SegmentFiles;

/**
 * Random partitions written by {@link PartitionWriter} read back through {@link LogCursor} and {@link IndexFile}
 * equal what was appended: every batch, message, header, offset and timestamp, and an index with one entry per
 * flushed chunk (F 3.2) over segments that chain {@code end + 1} (F 2.1).
 *
 * <p>The expected layout comes from a model of the flush rules written from the spec: the journal flushes when it
 * holds {@code messagesRequiredToSave} messages or {@code sizeRequiredToSave} bytes, on {@code flush()} and on
 * {@code close()}; a flush is one chunk per segment it touches; a segment is sealed after the batch that makes it
 * reach its size. The generic index rules are also checked on their own.
 */
class PartitionRoundTripTest {
    private static final Pattern SEGMENT_FILE = Pattern.compile("([0-9]{20})\\.(log|index)");
    private static final int COPY_ALL = Integer.MAX_VALUE;

    /** One appended batch as the test generated it. */
    private record Appended(List<Message> messages, List<byte[]> plain, long baseOffset, long baseTimestamp,
                            long originTimestamp, int length) {
        int count() {
            return messages.size();
        }
    }

    /** Where the model puts one batch: its segment's start offset and its position in that log. */
    private record Placed(Appended batch, long segment, long position) {
    }

    private static final class Model {
        final PartitionWriter.Config config;
        final List<Appended> journal = new ArrayList<>();
        final List<Placed> placed = new ArrayList<>();
        final List<List<IndexEntry>> entries = new ArrayList<>();
        final List<Long> starts = new ArrayList<>();
        long journalMessages;
        long journalBytes;
        boolean open;
        long length;

        Model(PartitionWriter.Config config) {
            this.config = config;
        }

        void append(Appended a) {
            journal.add(a);
            journalMessages += a.count();
            journalBytes += a.length();
            if (journalMessages >= config.messagesRequiredToSave() || journalBytes >= config.sizeRequiredToSave()) {
                flush();
            }
        }

        void flush() {
            boolean indexed = false;
            for (Appended a : journal) {
                if (a.count() == 0 && !config.writeEmptyBatches()) {
                    continue;
                }
                if (!open) {
                    open = true;
                    length = 0;
                    starts.add(a.baseOffset());
                    entries.add(new ArrayList<>());
                }
                long segment = starts.get(starts.size() - 1);
                if (a.count() > 0 && !indexed) {
                    entries.get(entries.size() - 1).add(new IndexEntry(a.baseOffset(), a.baseTimestamp(), length));
                    indexed = true;
                }
                placed.add(new Placed(a, segment, length));
                length += a.length();
                if (length >= config.segmentSize()) {
                    open = false;
                    indexed = false;
                }
            }
            journal.clear();
            journalMessages = 0;
            journalBytes = 0;
        }
    }

    @Property(tries = 120, seed = "20250411", shrinking = ShrinkingMode.OFF)
    void writtenPartitions_readBackEqual(@ForAll long seed) throws IOException {
        Path dir = Files.createTempDirectory("segtool-roundtrip");
        try {
            check(seed, dir);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        } finally {
            deleteTree(dir);
        }
    }

    private static void check(long seed, Path dir) throws IOException {
        Random random = new Random(seed);
        long startOffset = switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1000);
            case 2 -> Long.MAX_VALUE - 10_000 + random.nextInt(5000);
            default -> Long.MIN_VALUE + random.nextInt(1_000_000);   // above 2^63: unsigned file names
        };
        PartitionWriter.Config config = PartitionWriter.Config.of(1 + random.nextInt(1000))
                .startOffset(startOffset)
                .segmentSize(512 + random.nextInt(8000))
                .messagesRequiredToSave(1 + random.nextInt(random.nextBoolean() ? 3 : 40))
                .sizeRequiredToSave(random.nextBoolean() ? 1L << 20 : 256 + random.nextInt(6000))
                .firstTimestamp(1_600_000_000_000_000L + random.nextInt(1 << 30))
                .timestampStep(random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(5000))
                .writeEmptyBatches(random.nextInt(3) == 0);
        Model model = new Model(config);
        List<Appended> appended = new ArrayList<>();
        int batches = 1 + random.nextInt(40);
        try (PartitionWriter writer = new PartitionWriter(dir, config)) {
            long nextTimestamp = config.firstTimestamp();
            for (int b = 0; b < batches; b++) {
                int count = random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 3 : 12);
                List<Message> messages = new ArrayList<>();
                List<byte[]> plain = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    messages.add(message(random, plain));
                }
                long base;
                long origin;
                if (random.nextInt(3) == 0) {
                    base = random.nextLong() >>> 2;
                    origin = random.nextInt(4) == 0 ? 0 : random.nextLong() >>> 2;
                    writer.append(messages, base, origin);
                } else {
                    base = nextTimestamp;
                    origin = base - 1_000_000;
                    writer.append(messages);
                }
                nextTimestamp = base + config.timestampStep();
                int length = BatchHeader.LENGTH + messages.stream().mapToInt(Message::frameLength).sum();
                long baseOffset = appended.isEmpty() ? startOffset
                        : appended.get(appended.size() - 1).baseOffset() + appended.get(appended.size() - 1).count();
                Appended a = new Appended(messages, plain, baseOffset, base, origin, length);
                appended.add(a);
                model.append(a);
                if (random.nextInt(8) == 0) {
                    writer.flush();
                    model.flush();
                }
            }
            assertEquals(appended.get(batches - 1).baseOffset() + appended.get(batches - 1).count(),
                    writer.nextOffset());
        }
        model.flush();

        List<Long> starts = segmentStarts(dir);
        assertEquals(model.starts, starts, "segment start offsets");
        List<Placed> expected = model.placed;
        int next = 0;
        Long previousEnd = null;
        for (int s = 0; s < starts.size(); s++) {
            long start = starts.get(s);
            Path log = SegmentFiles.log(dir, start);
            List<LogCursor.Batch> read = new ArrayList<>();
            long size;
            try (SegmentChannel channel = SegmentChannel.open(log, 4096); LogCursor cursor = new LogCursor(channel)) {
                size = channel.size();
                for (LogCursor.Batch batch; (batch = cursor.next()) != null; ) {
                    Placed want = expected.get(next++);
                    assertEquals(start, want.segment(), "batch " + (next - 1) + " segment");
                    compare(want, batch, cursor, config.partitionId());
                    read.add(batch);
                }
                assertNull(cursor.stopReason(), () -> "segment " + start + ": " + cursor.stopReason().describe());
            }

            // Chain: the first batch carries S, segments continue at end + 1, and the lengths honour the cap.
            assertEquals(start, read.get(0).header().baseOffset(), "first batch of segment " + start);
            if (previousEnd != null) {
                assertEquals(previousEnd + 1, start, "segment " + start + " continues the previous one");
            }
            long end = start - 1;
            for (LogCursor.Batch b : read) {
                if (b.header().messageCount() > 0) {
                    end = b.header().endOffset();
                }
            }
            previousEnd = end;
            long lastLength = read.get(read.size() - 1).length();
            if (s < starts.size() - 1) {
                assertTrue(size >= config.segmentSize() && size - lastLength < config.segmentSize(),
                        "sealed segment " + start + " of " + size + " bytes, cap " + config.segmentSize());
            } else {
                assertTrue(size - lastLength < config.segmentSize(), "active segment " + start);
            }

            List<IndexEntry> index = index(SegmentFiles.index(dir, start));
            assertEquals(model.entries.get(s), index, "index of segment " + start);
            checkIndexRules(start, index, read, config.writeEmptyBatches());
        }
        assertEquals(expected.size(), next, "batches read back");
        long nonEmpty = appended.stream().filter(a -> a.count() > 0).count();
        assertEquals(nonEmpty, expected.stream().filter(p -> p.batch().count() > 0).count());
    }

    /** F 3.2: one entry per chunk; first entry (S, ts, 0); offsets and positions strictly increase; exact. */
    private static void checkIndexRules(long start, List<IndexEntry> index, List<LogCursor.Batch> read,
                                        boolean emptyBatchesWritten) {
        if (read.stream().allMatch(b -> b.header().messageCount() == 0)) {
            assertEquals(List.of(), index, "a segment of empty batches only has no entries");
            return;
        }
        IndexEntry first = index.get(0);
        assertEquals(start, first.offset());
        if (!emptyBatchesWritten || read.get(0).header().messageCount() > 0) {
            assertEquals(new IndexEntry(start, read.get(0).header().baseTimestamp(), 0), first);
        }
        for (int i = 1; i < index.size(); i++) {
            assertTrue(Long.compareUnsigned(index.get(i).offset(), index.get(i - 1).offset()) > 0, "offsets");
            assertTrue(index.get(i).position() > index.get(i - 1).position(), "positions");
        }
        for (IndexEntry e : index) {
            assertTrue(read.stream().anyMatch(b -> b.position() == e.position() && b.header().messageCount() > 0
                    && b.header().baseOffset() == e.offset() && b.header().baseTimestamp() == e.timestamp()),
                    "entry " + e + " marks a non-empty batch exactly");
        }
    }

    private static void compare(Placed want, LogCursor.Batch batch, LogCursor cursor, long partitionId)
            throws IOException {
        Appended a = want.batch();
        String where = "batch at " + want.segment() + "@" + want.position();
        assertTrue(batch.verified(), () -> where + ": " + batch.defect().describe());
        assertEquals(want.position(), batch.position(), where);
        assertEquals(new BatchHeader(partitionId, a.baseOffset(), a.baseTimestamp(), a.originTimestamp(), a.length(),
                batch.header().batchChecksum(), a.count()), batch.header(), where);
        List<MessageView> views = new ArrayList<>();
        Defect walk = cursor.messages(batch, COPY_ALL, views::add);
        assertNull(walk, where);
        assertEquals(a.count(), views.size(), where);
        for (int i = 0; i < a.count(); i++) {
            Message m = a.messages().get(i);
            MessageView v = views.get(i);
            String at = where + " message " + i;
            assertEquals(a.baseOffset() + i, v.offset(), at);
            assertEquals(a.originTimestamp() + m.timestampDelta(), v.timestamp(), at);
            assertEquals(new java.math.BigInteger(Long.toUnsignedString(m.idHigh())).shiftLeft(64)
                    .add(new java.math.BigInteger(Long.toUnsignedString(m.idLow()))).toString(), v.id(), at);
            assertEquals(i, v.frame().offsetDelta(), at);
            assertTrue(v.checksumMatches(), at);
            assertArrayEquals(m.payload(), v.payload(), at);
            assertArrayEquals(m.userHeaders(), v.userHeaders(), at);
            UserHeaders.Decoded headers = v.headers();
            assertNull(headers.problem(), at);
            assertArrayEquals(m.userHeaders(), UserHeaders.encode(headers.headers()), at);
            try {
                assertArrayEquals(a.plain().get(i), v.plainPayload(Payloads.MAX_DECOMPRESSED), at);
            } catch (Payloads.DecodeException e) {
                throw new AssertionError(at + ": " + e.getMessage(), e);
            }
        }
    }

    /** A random message; its plaintext payload goes to {@code plain}. */
    private static Message message(Random random, List<byte[]> plain) {
        long idLow = random.nextLong();
        long idHigh = random.nextInt(3) == 0 ? 0 : random.nextLong();
        long delta = random.nextInt(4) == 0 ? 0 : Integer.toUnsignedLong(random.nextInt());
        List<UserHeaders.Header> headers = new ArrayList<>();
        int pairs = random.nextInt(3) == 0 ? 0 : random.nextInt(5);
        for (int p = 0; p < pairs; p++) {
            headers.add(new UserHeaders.Header(item(random), item(random)));
        }
        byte[] payload;
        int shape = random.nextInt(5);
        if (shape == 0) {
            payload = new byte[0];
            plain.add(payload);
        } else if (shape == 1) {
            // Compressible text under the F 4.2 convention; the value's case varies.
            String text = ("segment " + random.nextInt(100) + " ").repeat(1 + random.nextInt(60));
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            plain.add(bytes);
            payload = Payloads.lz4Compress(bytes);
            headers.add(new UserHeaders.Header(UserHeaders.string(Payloads.COMPRESSION_KEY),
                    UserHeaders.string(random.nextBoolean() ? "lz4" : "LZ4")));
        } else {
            payload = new byte[random.nextInt(shape == 2 ? 16 : 700)];
            random.nextBytes(payload);
            plain.add(payload);
            if (random.nextInt(6) == 0) {
                headers.add(new UserHeaders.Header(UserHeaders.string(Payloads.COMPRESSION_KEY),
                        UserHeaders.string("none")));
            }
        }
        return new Message(idLow, idHigh, delta, payload, UserHeaders.encode(headers));
    }

    /** An item of a random kind: every known kind with its size, or an unknown code 16-255. */
    private static UserHeaders.Item item(Random random) {
        int code = random.nextInt(5) == 0 ? 16 + random.nextInt(240) : 1 + random.nextInt(15);
        HeaderKind kind = HeaderKind.of(code);
        int size = kind.size() > 0 ? kind.size() : 1 + random.nextInt(random.nextBoolean() ? 12 : 255);
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        if (kind == HeaderKind.BOOL) {
            bytes[0] = (byte) random.nextInt(2);
        } else if (kind == HeaderKind.STRING) {
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte) ('a' + random.nextInt(26));
            }
        }
        return new UserHeaders.Item(code, bytes);
    }

    private static List<Long> segmentStarts(Path dir) throws IOException {
        List<Long> logs = new ArrayList<>();
        List<Long> indexes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Matcher m = SEGMENT_FILE.matcher(f.getFileName().toString());
                assertTrue(m.matches(), "unexpected file " + f.getFileName());
                long start = Long.parseUnsignedLong(m.group(1));
                assertEquals(m.group(1), SegmentFiles.stem(start));
                (m.group(2).equals("log") ? logs : indexes).add(start);
            }
        }
        logs.sort(Long::compareUnsigned);
        indexes.sort(Long::compareUnsigned);
        assertEquals(logs, indexes, "every log has its index");
        return logs;
    }

    private static List<IndexEntry> index(Path file) throws IOException {
        List<IndexEntry> out = new ArrayList<>();
        try (IndexFile f = IndexFile.open(file)) {
            assertEquals(0, f.trailingBytes());
            for (long i = 0; i < f.entries(); i++) {
                out.add(f.entry(i));
            }
        }
        return out;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
