package segtool.formats.index;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import segtool.formats.io.SegmentChannel;

/**
 * Read access to a {@code .index} file: {@code floor(length / 24)} entries; trailing bytes that do not make a whole
 * entry are counted but not read (F 3.1). Entries are read through a bounded window, so an index of any length
 * costs the same memory.
 */
public final class IndexFile implements Closeable {
    private static final int WINDOW = 64 * 1024 - (64 * 1024) % IndexEntry.LENGTH;

    private final SegmentChannel channel;
    private final long length;

    private IndexFile(SegmentChannel channel, long length) {
        this.channel = channel;
        this.length = length;
    }

    /** Opens {@code path}; a missing file reads as an empty index. */
    public static IndexFile open(Path path) throws IOException {
        try {
            SegmentChannel channel = SegmentChannel.open(path, WINDOW);
            return new IndexFile(channel, channel.size());
        } catch (NoSuchFileException missing) {
            return new IndexFile(null, 0);
        }
    }

    /** The index whose content is {@code bytes} (already in memory), named {@code path}; read as a file is. */
    public static IndexFile of(Path path, byte[] bytes) {
        return new IndexFile(SegmentChannel.of(path, bytes, WINDOW), bytes.length);
    }

    /** The file length in bytes. */
    public long length() {
        return length;
    }

    /** Whole entries: {@code floor(length / 24)}. */
    public long entries() {
        return length / IndexEntry.LENGTH;
    }

    /** Bytes past the last whole entry (a torn append). */
    public int trailingBytes() {
        return (int) (length % IndexEntry.LENGTH);
    }

    public IndexEntry entry(long i) throws IOException {
        if (i < 0 || i >= entries()) {
            throw new IndexOutOfBoundsException("index entry " + i + " of " + entries());
        }
        int at = channel.at(i * IndexEntry.LENGTH, IndexEntry.LENGTH);
        return IndexEntry.read(channel.buffer(), at);
    }

    /** Encodes entries as an index file's bytes. */
    public static byte[] encode(List<IndexEntry> entries) {
        byte[] out = new byte[entries.size() * IndexEntry.LENGTH];
        for (int i = 0; i < entries.size(); i++) {
            entries.get(i).write(out, i * IndexEntry.LENGTH);
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
