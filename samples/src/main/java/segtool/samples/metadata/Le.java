package segtool.samples.metadata;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** A little-endian byte builder for the binary metadata files. */
final class Le {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Le u8(int v) {
        out.write(v & 0xff);
        return this;
    }

    Le u32(long v) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
        return this;
    }

    Le u64(long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
        return this;
    }

    Le bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    Le ascii(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    int size() {
        return out.size();
    }

    byte[] build() {
        return out.toByteArray();
    }
}
