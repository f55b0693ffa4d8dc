package segtool.formats.payload;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * The client-side LZ4 convention of F 4.2: a message whose user headers map {@code iggy-compression} (String) to
 * {@code lz4} carries an LZ4 frame as its payload. Decompression is capped so a crafted frame cannot exhaust memory.
 */
public final class Payloads {
    public static final String COMPRESSION_KEY = "iggy-compression";
    /** The example consumer's MAX_PAYLOAD_SIZE. */
    public static final int MAX_DECOMPRESSED = 64_000_000;

    private Payloads() {
    }

    /** The compression the headers name, lower-cased ({@code lz4}, {@code none}, ...) or null. */
    public static String compression(List<UserHeaders.Header> headers) {
        String v = UserHeaders.stringValue(headers, COMPRESSION_KEY);
        return v == null ? null : v.toLowerCase(java.util.Locale.ROOT);
    }

    /** Thrown when a payload cannot be decompressed; the message says why. */
    public static final class DecodeException extends IOException {
        public DecodeException(String message) {
            super(message);
        }
    }

    /** Decompresses an LZ4 frame, refusing output beyond {@code cap} bytes. */
    public static byte[] lz4Decompress(byte[] frame, int cap) throws DecodeException {
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(frame))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(cap, Math.max(64, frame.length * 4)));
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                if (out.size() + n > cap) {
                    throw new DecodeException("lz4 payload decompresses past " + cap + " bytes");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (DecodeException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new DecodeException("not a valid lz4 frame: " + e.getMessage());
        }
    }

    /**
     * Compresses with the frame settings the project's examples produce (F 8 vector C): independent 64 KiB blocks,
     * no checksums, no content size. lz4-java's own default is 4 MiB blocks, which differs in the descriptor byte
     * and costs a 4 MiB buffer per call.
     */
    public static byte[] lz4Compress(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream lz = new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB)) {
            lz.write(plain);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }
}
