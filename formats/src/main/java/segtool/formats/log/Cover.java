package segtool.formats.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.DirectBuffers;
import segtool.formats.io.TempDirectory;

/**
 * The batch-checksum input (F 2.5): 44 bytes of header meta, then each frame's stored 8-byte checksum. XXH3 here
 * hashes one contiguous range, so the cover is gathered into one reused buffer. Past {@link #BUFFER_CAP} bytes (a
 * batch of more than ~130,000 messages) it spills to a temporary file that is mapped for the hash, so a message
 * count read from disk never sizes an allocation. The buffer starts small and doubles only as frames that are
 * actually present are added, so a verifier is cheap to create.
 *
 * <p>The buffer is direct (from {@link DirectBuffers}' pool), like the windows the messages are hashed in: with a
 * heap buffer here, XXH3's long-input loop saw array and native memory in turn, and C2 compiled it seven times in a
 * 1 GiB scan (speculating on one kind, trapping on the other, recompiling); with one kind, three times.
 */
final class Cover implements AutoCloseable {
    static final int BUFFER_CAP = 1 << 20;
    static final int BUFFER_INITIAL = 4 << 10;

    private ByteBuffer gathered = DirectBuffers.take(BUFFER_INITIAL).order(ByteOrder.LITTLE_ENDIAN);
    private Path spillPath;
    private FileChannel spill;
    private long spilled;

    void reset() throws IOException {
        gathered.clear();
        spilled = 0;
        if (spill != null) {
            spill.truncate(0);
        }
    }

    void putLong(long v) throws IOException {
        if (gathered.remaining() < Long.BYTES) {
            if (gathered.capacity() < BUFFER_CAP) {
                grow();
            } else {
                flushToSpill();
            }
        }
        gathered.putLong(v);
    }

    private void grow() {
        ByteBuffer larger = DirectBuffers.take(Math.min(BUFFER_CAP, gathered.capacity() * 2))
                .order(ByteOrder.LITTLE_ENDIAN);
        gathered.flip();
        larger.put(gathered);
        DirectBuffers.give(gathered);
        gathered = larger;
    }

    void putInt(int v) {
        gathered.putInt(v);
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
        gathered.flip();
        while (gathered.hasRemaining()) {
            spilled += spill.write(gathered, spilled);
        }
        gathered.clear();
    }

    long hash() throws IOException {
        if (spilled == 0) {
            return Xxh3.hash(gathered, 0, gathered.position());
        }
        flushToSpill();
        return segtool.formats.io.MappedRange.read(spill, spillPath, 0, spilled, b -> Xxh3.hash(b, 0, (int) spilled));
    }

    @Override
    public void close() throws IOException {
        DirectBuffers.give(gathered);
        gathered = null;
        if (spill != null) {
            spill.close();
            spill = null;
        }
    }
}
