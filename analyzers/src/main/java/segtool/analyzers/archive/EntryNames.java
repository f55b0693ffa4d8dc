package segtool.analyzers.archive;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * The archive name of a file, from the bytes its directory holds rather than from Java's decoding of them.
 *
 * <p>Linux file names are bytes. java.nio decodes them with {@code sun.jnu.encoding} (the locale's charset: UTF-8,
 * or ASCII under {@code LANG=C}) and puts U+FFFD for whatever does not decode, so {@code Path.toString()} gives one
 * name for {@code ff 2e 6c 6f 67} and {@code fe 2e 6c 6f 67}, and under {@code LANG=C} even for every non-ASCII
 * UTF-8 name of one length. The {@code file:} URI of a path keeps the bytes (percent-encoded), whatever the
 * locale: names are taken from it. A name whose bytes are UTF-8 (and hold nothing {@link DumpReader} refuses) is
 * its own archive name. Any other is <em>escaped</em>: every byte of a sequence that is not UTF-8, and every
 * {@code %} and {@code \}, becomes {@code %XX} (upper-case hex), the rest is kept; should that equal another name of
 * the same directory, {@code ~1}, {@code ~2}, ... is appended until it is free. The pack's {@link Manifest} lists
 * every escaped entry with its original bytes ({@code escaped_names}), so nothing is merged and nothing is lost.
 */
final class EntryNames {
    /** One name component: what the archive calls it, and the bytes the directory holds. */
    record Name(String text, byte[] bytes, boolean escaped) {
    }

    private EntryNames() {
    }

    /** The last component of {@code p} (which must be absolute), with its own bytes. */
    static Name of(Path p) {
        byte[] raw = bytes(p);
        return name(raw);
    }

    /** {@link #of}, made unique among {@code taken} by a {@code ~N} suffix when it is escaped; adds it to taken. */
    static Name unique(Name n, Set<String> taken) {
        String text = n.text();
        if (n.escaped()) {
            for (int i = 1; taken.contains(text); i++) {
                text = n.text() + "~" + i;
            }
        }
        taken.add(text);
        return text.equals(n.text()) ? n : new Name(text, n.bytes(), true);
    }

    /** An absolute path for messages and the manifest's {@code source}: each component as {@link #of} names it. */
    static String display(Path absolute) {
        if (absolute.getFileSystem() != FileSystems.getDefault()) {
            return absolute.toString();
        }
        StringBuilder s = new StringBuilder();
        for (String part : rawPath(absolute).split("/")) {
            if (!part.isEmpty()) {
                s.append('/').append(name(decodePercent(part)).text());
            }
        }
        return s.length() == 0 ? "/" : s.toString();
    }

    /** The bytes as lower-case hex, for the manifest. */
    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            s.append(String.format(Locale.ROOT, "%02x", b & 0xff));
        }
        return s.toString();
    }

    /** The name of {@code raw}: itself when it is UTF-8 and safe, else escaped. */
    static Name name(byte[] raw) {
        String decoded = strictUtf8(raw);
        if (decoded != null && decoded.indexOf('\\') < 0) {
            return new Name(decoded, raw, false);
        }
        return new Name(escape(raw), raw, true);
    }

    private static byte[] bytes(Path p) {
        Path name = p.getFileName();
        if (name == null) {
            return new byte[0];
        }
        if (p.getFileSystem() != FileSystems.getDefault()) {
            return name.toString().getBytes(StandardCharsets.UTF_8);
        }
        String raw = rawPath(p);
        return decodePercent(raw.substring(raw.lastIndexOf('/') + 1));
    }

    /** The path's bytes, percent-encoded, without the trailing '/' a directory's URI carries. */
    private static String rawPath(Path p) {
        String raw = p.toAbsolutePath().toUri().getRawPath();
        while (raw.length() > 1 && raw.endsWith("/")) {
            raw = raw.substring(0, raw.length() - 1);
        }
        return raw;
    }

    private static byte[] decodePercent(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);   // the URI's unescaped characters are ASCII
            }
        }
        return out.toByteArray();
    }

    private static String strictUtf8(byte[] raw) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    private static String escape(byte[] raw) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(raw);
        CharBuffer chars = CharBuffer.allocate(raw.length + 1);
        StringBuilder s = new StringBuilder();
        while (true) {
            CoderResult r = decoder.decode(in, chars, true);
            chars.flip();
            while (chars.hasRemaining()) {
                char c = chars.get();
                if (c == '%' || c == '\\') {
                    s.append(String.format(Locale.ROOT, "%%%02X", (int) c));
                } else {
                    s.append(c);
                }
            }
            chars.clear();
            if (r.isError()) {
                for (int i = 0; i < r.length(); i++) {
                    s.append(String.format(Locale.ROOT, "%%%02X", in.get() & 0xff));
                }
                continue;
            }
            if (!in.hasRemaining()) {
                break;
            }
        }
        return s.toString();
    }
}
