package segtool.analyzers.archive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import segtool.formats.hash.Xxh3;

/** Archives built in code with commons-compress, lz4-java and java.util.zip, and tree comparisons. */
final class Fixtures {
    /** Whole seconds, so commons-compress writes no PAX record and header positions stay 512-aligned and simple. */
    static final FileTime MTIME = FileTime.fromMillis(1_700_000_000_000L);

    private Fixtures() {
    }

    /** A tar built entry by entry in memory; {@link #position()} is where the next entry's header will start. */
    static final class TarBuilder {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes, StandardCharsets.UTF_8.name());

        TarBuilder() {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_GNU);
        }

        long position() {
            return tar.getBytesWritten();
        }

        TarBuilder file(String name, byte[] data) {
            return entry(new TarArchiveEntry(name, true), data);
        }

        TarBuilder file(String name, String text) {
            return file(name, text.getBytes(StandardCharsets.UTF_8));
        }

        TarBuilder dir(String name) {
            return entry(new TarArchiveEntry(name.endsWith("/") ? name : name + "/", true), new byte[0]);
        }

        /** Any entry; name, type and link target as the caller set them (absolute names kept). */
        TarBuilder entry(TarArchiveEntry e, byte[] data) {
            try {
                e.setSize(data.length);
                e.setLastModifiedTime(MTIME);
                tar.putArchiveEntry(e);
                tar.write(data);
                tar.closeArchiveEntry();
                return this;
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }

        byte[] bytes() {
            try {
                tar.close();
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            return bytes.toByteArray();
        }
    }

    static TarArchiveEntry typed(String name, byte type) {
        return new TarArchiveEntry(name, type, true);
    }

    static byte[] lz4(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream lz4 = new LZ4FrameOutputStream(out)) {
            lz4.write(data);
        }
        return out.toByteArray();
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    /** Relative path ('/'-separated) of every regular file under {@code root} to the XXH3-64 of its bytes. */
    static Map<String, Long> hashes(Path root) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.put(root.relativize(p).toString().replace('\\', '/'), Xxh3.hash(Files.readAllBytes(p)));
                }
            }
        }
        return out;
    }

    static long countEntries(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.count();
        }
    }
}
