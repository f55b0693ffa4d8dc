package segtool.samples.metadata;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A MessagePack encoder written from METADATA 2.2 (rmp-serde's default forms): every integer in its smallest
 * unsigned form, fixstr/str8/16/32, fixarray/array16/32, fixmap/map16/32, nil, bools. Independent of the reader
 * under test, which uses msgpack-core.
 */
public final class MsgPack {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public byte[] bytes() {
        return out.toByteArray();
    }

    /** An unsigned integer (u64 as a long; negative longs are values above 2^63). */
    public MsgPack uint(long v) {
        if (v >= 0 && v < 0x80) {
            out.write((int) v);
        } else if (v >= 0 && v <= 0xff) {
            out.write(0xcc);
            out.write((int) v);
        } else if (v >= 0 && v <= 0xffff) {
            out.write(0xcd);
            be(v, 2);
        } else if (v >= 0 && v <= 0xffffffffL) {
            out.write(0xce);
            be(v, 4);
        } else {
            out.write(0xcf);
            be(v, 8);
        }
        return this;
    }

    public MsgPack bool(boolean b) {
        out.write(b ? 0xc3 : 0xc2);
        return this;
    }

    public MsgPack nil() {
        out.write(0xc0);
        return this;
    }

    public MsgPack str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length < 32) {
            out.write(0xa0 | b.length);
        } else if (b.length <= 0xff) {
            out.write(0xd9);
            out.write(b.length);
        } else if (b.length <= 0xffff) {
            out.write(0xda);
            be(b.length, 2);
        } else {
            out.write(0xdb);
            be(b.length, 4);
        }
        out.writeBytes(b);
        return this;
    }

    public MsgPack array(int n) {
        if (n < 16) {
            out.write(0x90 | n);
        } else if (n <= 0xffff) {
            out.write(0xdc);
            be(n, 2);
        } else {
            out.write(0xdd);
            be(n, 4);
        }
        return this;
    }

    public MsgPack map(int n) {
        if (n < 16) {
            out.write(0x80 | n);
        } else if (n <= 0xffff) {
            out.write(0xde);
            be(n, 2);
        } else {
            out.write(0xdf);
            be(n, 4);
        }
        return this;
    }

    /** Bytes already encoded. */
    public MsgPack raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    private void be(long v, int width) {
        for (int i = width - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
    }
}
