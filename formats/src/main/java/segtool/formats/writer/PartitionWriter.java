package segtool.formats.writer;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.naming.SegmentFiles;

/**
 * Writes a partition directory byte-exact with the server's flush writer (F 2, F 3.2).
 *
 * <p>Appended batches go to a journal, stamped with the partition id, the next offset and a strictly increasing
 * base timestamp. The journal is flushed once it holds {@code messagesRequiredToSave} messages or
 * {@code sizeRequiredToSave} bytes, and on {@link #flush()}/{@link #close()}. A flush writes its batches as one
 * chunk and appends one index entry for the chunk's first non-empty batch. When a batch makes the log reach or
 * exceed {@code segmentSize}, the chunk ends there, the segment is sealed, and the rest of the flush continues in a
 * new segment starting at the next offset. Empty batches are skipped by the flush, as the server does, unless
 * {@link Config#writeEmptyBatches} is set to build shapes the server never writes.
 */
public final class PartitionWriter implements Closeable {

    /** The knobs; defaults are the server's where it has one (1 GiB segments, 1024 messages, 1 MiB). */
    public record Config(long partitionId, long startOffset, long segmentSize, int messagesRequiredToSave,
                         long sizeRequiredToSave, long firstTimestamp, long timestampStep, boolean writeEmptyBatches,
                         boolean trackLayout) {
        public static Config of(long partitionId) {
            return new Config(partitionId, 0, 1L << 30, 1024, 1L << 20, 1_700_000_000_000_000L, 1_000, false, true);
        }

        public Config startOffset(long v) {
            return new Config(partitionId, v, segmentSize, messagesRequiredToSave, sizeRequiredToSave, firstTimestamp,
                    timestampStep, writeEmptyBatches, trackLayout);
        }

        public Config segmentSize(long v) {
            return new Config(partitionId, startOffset, v, messagesRequiredToSave, sizeRequiredToSave, firstTimestamp,
                    timestampStep, writeEmptyBatches, trackLayout);
        }

        public Config messagesRequiredToSave(int v) {
            return new Config(partitionId, startOffset, segmentSize, v, sizeRequiredToSave, firstTimestamp,
                    timestampStep, writeEmptyBatches, trackLayout);
        }

        public Config sizeRequiredToSave(long v) {
            return new Config(partitionId, startOffset, segmentSize, messagesRequiredToSave, v, firstTimestamp,
                    timestampStep, writeEmptyBatches, trackLayout);
        }

        public Config firstTimestamp(long v) {
            return new Config(partitionId, startOffset, segmentSize, messagesRequiredToSave, sizeRequiredToSave, v,
                    timestampStep, writeEmptyBatches, trackLayout);
        }

        public Config timestampStep(long v) {
            return new Config(partitionId, startOffset, segmentSize, messagesRequiredToSave, sizeRequiredToSave,
                    firstTimestamp, v, writeEmptyBatches, trackLayout);
        }

        public Config writeEmptyBatches(boolean v) {
            return new Config(partitionId, startOffset, segmentSize, messagesRequiredToSave, sizeRequiredToSave,
                    firstTimestamp, timestampStep, v, trackLayout);
        }

        public Config trackLayout(boolean v) {
            return new Config(partitionId, startOffset, segmentSize, messagesRequiredToSave, sizeRequiredToSave,
                    firstTimestamp, timestampStep, writeEmptyBatches, v);
        }
    }

    /** Where one written batch landed. */
    public record BatchInfo(long position, long length, long baseOffset, long messageCount, long baseTimestamp) {
        public long end() {
            return position + length;
        }
    }

    /** One written segment: its files, batches and index entries (empty lists when layout is not tracked). */
    public record SegmentLayout(long startOffset, Path log, Path index, List<BatchInfo> batches,
                                List<IndexEntry> entries, long length, long endOffset) {
        public BatchInfo batch(int i) {
            return batches.get(i);
        }
    }

    private record Pending(byte[] record, long baseOffset, long count, long baseTimestamp) {
    }

    private final Path directory;
    private final Config config;
    private final List<Pending> journal = new ArrayList<>();
    private final List<SegmentLayout> sealed = new ArrayList<>();
    private long journalMessages;
    private long journalBytes;
    private long nextOffset;
    private long nextTimestamp;
    private Segment active;

    private final class Segment {
        final long start;
        final Path log;
        final Path index;
        final OutputStream logOut;
        final OutputStream indexOut;
        final List<BatchInfo> batches = new ArrayList<>();
        final List<IndexEntry> entries = new ArrayList<>();
        long length;
        long endOffset;

        Segment(long start) throws IOException {
            this.start = start;
            this.endOffset = start;
            this.log = SegmentFiles.log(directory, start);
            this.index = SegmentFiles.index(directory, start);
            this.logOut = Files.newOutputStream(log, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            this.indexOut = Files.newOutputStream(index, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }

        SegmentLayout layout() {
            return new SegmentLayout(start, log, index, List.copyOf(batches), List.copyOf(entries), length,
                    endOffset);
        }

        void close() throws IOException {
            logOut.close();
            indexOut.close();
        }
    }

    public PartitionWriter(Path directory, Config config) throws IOException {
        this.directory = directory;
        this.config = config;
        this.nextOffset = config.startOffset();
        this.nextTimestamp = config.firstTimestamp();
        Files.createDirectories(directory);
    }

    public Config config() {
        return config;
    }

    /** The offset the next appended message will get. */
    public long nextOffset() {
        return nextOffset;
    }

    /** Appends a batch with the next base timestamp; origin timestamp is the base minus one second. */
    public PartitionWriter append(List<Message> messages) throws IOException {
        return append(messages, nextTimestamp, nextTimestamp - 1_000_000);
    }

    /** Appends a batch with explicit timestamps. Base timestamps after it continue from this one. */
    public PartitionWriter append(List<Message> messages, long baseTimestamp, long originTimestamp)
            throws IOException {
        byte[] record = RecordEncoder.encode(config.partitionId(), nextOffset, baseTimestamp, originTimestamp,
                messages);
        journal.add(new Pending(record, nextOffset, messages.size(), baseTimestamp));
        nextOffset = U64.addSat(nextOffset, messages.size());
        nextTimestamp = baseTimestamp + config.timestampStep();
        journalMessages += messages.size();
        journalBytes += record.length;
        if (journalMessages >= config.messagesRequiredToSave() || journalBytes >= config.sizeRequiredToSave()) {
            flush();
        }
        return this;
    }

    /** Writes the journal as one chunk (split where it crosses the segment cap). */
    public PartitionWriter flush() throws IOException {
        boolean indexed = false;
        for (Pending p : journal) {
            if (p.count() == 0 && !config.writeEmptyBatches()) {
                continue;
            }
            if (active == null) {
                active = new Segment(p.baseOffset());
            }
            if (p.count() > 0 && !indexed) {
                IndexEntry e = new IndexEntry(p.baseOffset(), p.baseTimestamp(), active.length);
                active.indexOut.write(e.toBytes());
                active.entries.add(e);
                indexed = true;
            }
            active.logOut.write(p.record());
            if (config.trackLayout()) {
                active.batches.add(new BatchInfo(active.length, p.record().length, p.baseOffset(), p.count(),
                        p.baseTimestamp()));
            }
            active.length += p.record().length;
            if (p.count() > 0) {
                active.endOffset = p.baseOffset() + p.count() - 1;
            }
            if (active.length >= config.segmentSize()) {
                seal();
                indexed = false;
            }
        }
        journal.clear();
        journalMessages = 0;
        journalBytes = 0;
        if (active != null) {
            active.logOut.flush();
            active.indexOut.flush();
        }
        return this;
    }

    private void seal() throws IOException {
        active.close();
        sealed.add(trim(active.layout()));
        active = null;
    }

    private SegmentLayout trim(SegmentLayout l) {
        return config.trackLayout() ? l : new SegmentLayout(l.startOffset(), l.log(), l.index(), List.of(),
                l.entries(), l.length(), l.endOffset());
    }

    /** Flushes what is journaled and closes the active segment's files. */
    @Override
    public void close() throws IOException {
        flush();
        if (active != null) {
            active.close();
            sealed.add(trim(active.layout()));
            active = null;
        }
    }

    /** Every segment written so far, the active one last. Call after {@link #close()} for final lengths. */
    public List<SegmentLayout> segments() {
        List<SegmentLayout> all = new ArrayList<>(sealed);
        if (active != null) {
            all.add(trim(active.layout()));
        }
        return all;
    }

    /** Writes messages {@code count} at a time into batches until the partition holds {@code total} messages. */
    public static List<SegmentLayout> fill(Path directory, Config config, int total, int perBatch, int payloadBytes,
                                           long seed) {
        java.util.Random random = new java.util.Random(seed);
        try (PartitionWriter w = new PartitionWriter(directory, config)) {
            int written = 0;
            while (written < total) {
                int n = Math.min(perBatch, total - written);
                List<Message> batch = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    byte[] payload = new byte[payloadBytes];
                    random.nextBytes(payload);
                    batch.add(Message.of(w.nextOffset() + i + 1, payload));
                }
                w.append(batch);
                written += n;
            }
            w.close();
            return w.segments();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
