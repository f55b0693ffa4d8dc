package segtool.formats.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.TempDirectory;

/**
 * The batch-checksum input (F 2.5): 44 bytes of header meta, then each frame's stored 8-byte checksum. XXH3 here
 * hashes one contiguous range, so the cover is gathered into one reused buffer. Past {@link #HEAP_CAP} bytes (a
 * batch of more than ~130,000 messages) it spills to a temporary file that is mapped for the hash, so a message
 * count read from disk never sizes a heap allocation. The buffer starts small and doubles only as frames that are
 * actually present are added, so a verifier is cheap to create.
 */
final class Cover implements AutoCloseable {
    static final int HEAP_CAP = 1 << 20;
    static final int HEAP_INITIAL = 4 << 10;

    private ByteBuffer heap = ByteBuffer.allocate(HEAP_INITIAL).order(ByteOrder.LITTLE_ENDIAN);
    private Path spillPath;
    private FileChannel spill;
    private long spilled;

    void reset() throws IOException {
        heap.clear();
        spilled = 0;
        if (spill != null) {
            spill.truncate(0);
        }
    }

    void putLong(long v) throws IOException {
        if (heap.remaining() < Long.BYTES) {
            if (heap.capacity() < HEAP_CAP) {
                grow();
            } else {
                flushToSpill();
            }
        }
        heap.putLong(v);
    }

    private void grow() {
        ByteBuffer larger = ByteBuffer.allocate(Math.min(HEAP_CAP, heap.capacity() * 2))
                .order(ByteOrder.LITTLE_ENDIAN);
        heap.flip();
        larger.put(heap);
        heap = larger;
    }

    void putInt(int v) {
        heap.putInt(v);
    }

    private void flushToSpill() throws IOException {
        if (spill == null) {
            Path tmp = TempDirectory.get();
            try {
                spillPath = Files.createTempFile(tmp, "segtool-cover", ".bin");
            } catch (IOException e) {
                throw new IOException("cannot create a checksum spill file under " + TempDirectory.describe(tmp) + ": "
                        + TempDirectory.reason(e), e);
            }
            spill = FileChannel.open(spillPath, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.DELETE_ON_CLOSE);
        }
        heap.flip();
        while (heap.hasRemaining()) {
            spilled += spill.write(heap, spilled);
        }
        heap.clear();
    }

    long hash() throws IOException {
        if (spilled == 0) {
            return Xxh3.hash(heap.array(), 0, heap.position());
        }
        flushToSpill();
        return segtool.formats.io.MappedRange.read(spill, spillPath, 0, spilled, b -> Xxh3.hash(b, 0, (int) spilled));
    }

    @Override
    public void close() throws IOException {
        if (spill != null) {
            spill.close();
            spill = null;
        }
    }
}
