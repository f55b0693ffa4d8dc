package segtool.formats.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.LogCursor;
import segtool.formats.log.Message;
import segtool.formats.naming.SegmentFiles;

/** Chunking, indexing and rotation of the flush writer (F 2.1, F 3.2), read back from disk. */
class PartitionWriterTest {
    /** 256 + 2 x (48 + 52) = 456 bytes per batch of two 52-byte messages. */
    private static final int BATCH_BYTES = 456;
    private static final long T0 = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    private static List<Message> two(int tag) {
        return List.of(Message.of(tag * 10 + 1, new byte[52]), Message.of(tag * 10 + 2, new byte[52]));
    }

    private static PartitionWriter.Config config() {
        return PartitionWriter.Config.of(3).firstTimestamp(T0).timestampStep(10);
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

    private static List<LogCursor.Batch> batches(Path log) throws IOException {
        List<LogCursor.Batch> out = new ArrayList<>();
        try (SegmentChannel ch = SegmentChannel.open(log); LogCursor cursor = new LogCursor(ch)) {
            for (LogCursor.Batch b; (b = cursor.next()) != null; ) {
                LogCursor.Batch batch = b;
                assertTrue(batch.verified(), () -> batch.defect().describe());
                out.add(batch);
            }
            assertEquals(null, cursor.stopReason());
        }
        return out;
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void messagesRequiredToSave_chunksAtTheThreshold() throws IOException {
        // 3 batches of 2 messages with a threshold of 4: the second append flushes batches 0-1 as one chunk,
        // close() flushes batch 2 as another. One entry per chunk, at the chunk's first batch.
        try (PartitionWriter w = new PartitionWriter(dir, config().messagesRequiredToSave(4))) {
            w.append(two(0));
            assertEquals(List.of(), files(), "nothing is written before the first flush");
            w.append(two(1));
            assertEquals(BATCH_BYTES * 2L, Files.size(SegmentFiles.log(dir, 0)));
            w.append(two(2));
            assertEquals(BATCH_BYTES * 2L, Files.size(SegmentFiles.log(dir, 0)), "batch 2 waits in the journal");
        }
        assertEquals(List.of("00000000000000000000.index", "00000000000000000000.log"), files());
        assertEquals(List.of(new IndexEntry(0, T0, 0), new IndexEntry(4, T0 + 20, 2L * BATCH_BYTES)),
                index(SegmentFiles.index(dir, 0)));
        List<LogCursor.Batch> b = batches(SegmentFiles.log(dir, 0));
        assertEquals(List.of(0L, 2L, 4L), b.stream().map(x -> x.header().baseOffset()).toList());
        assertEquals(List.of(T0, T0 + 10, T0 + 20), b.stream().map(x -> x.header().baseTimestamp()).toList());
        assertEquals(List.of(3L, 3L, 3L), b.stream().map(x -> x.header().partitionId()).toList());
    }

    @Test
    void messagesRequiredToSaveOne_indexesEveryBatch() throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir, config().messagesRequiredToSave(1))) {
            for (int i = 0; i < 4; i++) {
                w.append(two(i));
            }
        }
        List<IndexEntry> entries = index(SegmentFiles.index(dir, 0));
        assertEquals(4, entries.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(new IndexEntry(2L * i, T0 + 10L * i, (long) BATCH_BYTES * i), entries.get(i));
        }
    }

    @Test
    void sizeRequiredToSave_flushesOnceTheJournalHoldsThatManyBytes() throws IOException {
        // 1,000 bytes trips on the third batch (1,368 bytes): chunks of three batches.
        try (PartitionWriter w = new PartitionWriter(dir, config().sizeRequiredToSave(1000))) {
            for (int i = 0; i < 7; i++) {
                w.append(two(i));
                assertEquals((i + 1) / 3 * 3L * BATCH_BYTES,
                        Files.exists(SegmentFiles.log(dir, 0)) ? Files.size(SegmentFiles.log(dir, 0)) : 0,
                        "after batch " + i);
            }
        }
        assertEquals(List.of(new IndexEntry(0, T0, 0), new IndexEntry(6, T0 + 30, 3L * BATCH_BYTES),
                new IndexEntry(12, T0 + 60, 6L * BATCH_BYTES)), index(SegmentFiles.index(dir, 0)));
        // Exactly reaching the threshold also flushes.
        Path other = dir.resolve("exact");
        try (PartitionWriter w = new PartitionWriter(other, config().sizeRequiredToSave(2 * BATCH_BYTES))) {
            w.append(two(0));
            w.append(two(1));
            assertEquals(2L * BATCH_BYTES, Files.size(SegmentFiles.log(other, 0)));
        }
    }

    @Test
    void rotation_sealsAtTheBatchThatReachesTheCap_andTheNextSegmentStartsAtTheNextOffset() throws IOException {
        // Cap 1,000: batches of 456 bytes end at 456, 912, 1,368. The third crosses and stays whole.
        List<PartitionWriter.SegmentLayout> layout;
        try (PartitionWriter w = new PartitionWriter(dir, config().startOffset(100).segmentSize(1000)
                .messagesRequiredToSave(1))) {
            for (int i = 0; i < 7; i++) {
                w.append(two(i));
            }
            w.close();
            layout = w.segments();
        }
        assertEquals(List.of("00000000000000000100.index", "00000000000000000100.log",
                "00000000000000000106.index", "00000000000000000106.log",
                "00000000000000000112.index", "00000000000000000112.log"), files());
        assertEquals(3L * BATCH_BYTES, Files.size(SegmentFiles.log(dir, 100)));
        assertEquals(3L * BATCH_BYTES, Files.size(SegmentFiles.log(dir, 106)));
        assertEquals(BATCH_BYTES, Files.size(SegmentFiles.log(dir, 112)));
        assertEquals(List.of(new IndexEntry(106, T0 + 30, 0), new IndexEntry(108, T0 + 40, BATCH_BYTES),
                new IndexEntry(110, T0 + 50, 2L * BATCH_BYTES)), index(SegmentFiles.index(dir, 106)));
        assertEquals(List.of(new IndexEntry(112, T0 + 60, 0)), index(SegmentFiles.index(dir, 112)));
        assertEquals(List.of(100L, 106L, 112L), layout.stream().map(PartitionWriter.SegmentLayout::startOffset)
                .toList());
        assertEquals(List.of(105L, 111L, 113L), layout.stream().map(PartitionWriter.SegmentLayout::endOffset)
                .toList());
        assertEquals(List.of(106L, 108L, 110L), batches(SegmentFiles.log(dir, 106)).stream()
                .map(b -> b.header().baseOffset()).toList());
        assertEquals(List.of(new IndexEntry(100, T0, 0), new IndexEntry(102, T0 + 10, BATCH_BYTES),
                new IndexEntry(104, T0 + 20, 2L * BATCH_BYTES)), index(SegmentFiles.index(dir, 100)));
    }

    @Test
    void reachingTheCapExactly_rotates() throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir, config().segmentSize(2 * BATCH_BYTES)
                .messagesRequiredToSave(1))) {
            for (int i = 0; i < 3; i++) {
                w.append(two(i));
            }
        }
        assertEquals(2L * BATCH_BYTES, Files.size(SegmentFiles.log(dir, 0)));
        assertEquals(BATCH_BYTES, Files.size(SegmentFiles.log(dir, 4)));
    }

    @Test
    void flushAcrossTheCap_splitsTheChunk_withAFreshEntryAtPositionZero() throws IOException {
        // One flush of five batches into 1,000-byte segments: batches 0-2 fill segment 0 (the third crosses),
        // batches 3-4 continue in segment 6, which gets its own entry at position 0.
        try (PartitionWriter w = new PartitionWriter(dir, config().segmentSize(1000))) {
            for (int i = 0; i < 5; i++) {
                w.append(two(i));
            }
            assertEquals(List.of(), files());
            w.flush();
        }
        assertEquals(List.of(new IndexEntry(0, T0, 0)), index(SegmentFiles.index(dir, 0)));
        assertEquals(List.of(new IndexEntry(6, T0 + 30, 0)), index(SegmentFiles.index(dir, 6)));
        assertEquals(List.of(0L, 2L, 4L), batches(SegmentFiles.log(dir, 0)).stream()
                .map(b -> b.header().baseOffset()).toList());
        assertEquals(List.of(6L, 8L), batches(SegmentFiles.log(dir, 6)).stream()
                .map(b -> b.header().baseOffset()).toList());
    }

    @Test
    void emptyBatches_areSkippedByTheFlush_andDoNotConsumeOffsets() throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir, config().messagesRequiredToSave(1))) {
            w.append(List.of());
            w.append(two(0));
            w.append(List.of());
            w.flush();
            w.append(two(1));
        }
        List<LogCursor.Batch> b = batches(SegmentFiles.log(dir, 0));
        assertEquals(List.of(0L, 2L), b.stream().map(x -> x.header().baseOffset()).toList());
        assertEquals(List.of(T0 + 10, T0 + 30), b.stream().map(x -> x.header().baseTimestamp()).toList());
        assertEquals(List.of(new IndexEntry(0, T0 + 10, 0), new IndexEntry(2, T0 + 30, BATCH_BYTES)),
                index(SegmentFiles.index(dir, 0)));
    }

    @Test
    void writeEmptyBatches_keepsThemInTheLogButNeverIndexesThem() throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir, config().messagesRequiredToSave(3)
                .writeEmptyBatches(true))) {
            w.append(two(0));
            w.append(List.of());
            w.append(two(1));   // 4 messages: flush [0, empty, 1]
            w.append(List.of());
            w.append(two(2));   // flush [empty, 2]: the entry points at batch 2, not the empty batch
        }
        List<LogCursor.Batch> b = batches(SegmentFiles.log(dir, 0));
        assertEquals(List.of(2L, 0L, 2L, 0L, 2L), b.stream().map(x -> x.header().messageCount()).toList());
        assertEquals(List.of(0L, 2L, 2L, 4L, 4L), b.stream().map(x -> x.header().baseOffset()).toList());
        long emptyAt = b.get(3).position();
        assertEquals(List.of(new IndexEntry(0, T0, 0), new IndexEntry(4, T0 + 40, emptyAt + 256)),
                index(SegmentFiles.index(dir, 0)));
    }

    @Test
    void indexBytes_areTheEntriesInOrder() throws IOException {
        try (PartitionWriter w = new PartitionWriter(dir, config().messagesRequiredToSave(2))) {
            w.append(two(0));
            w.append(two(1));
        }
        assertArrayEquals(IndexFile.encode(List.of(new IndexEntry(0, T0, 0), new IndexEntry(2, T0 + 10,
                BATCH_BYTES))), Files.readAllBytes(SegmentFiles.index(dir, 0)));
    }
}
