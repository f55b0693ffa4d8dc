package segtool.analyzers.archive;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Packs a partition or a whole data directory from a failed node into one archive: a tar, inside an LZ4 frame
 * unless the output name ends in {@code .tar}.
 *
 * <p>Entries are named {@code <source dir name>/<relative path>}, directories before their contents, siblings in
 * name order, each with its permission bits and modification time (sub-second times travel in PAX records). The
 * first entry is the {@link Manifest}, which needs every file's XXH3-64 before any file is written, so each file is
 * read twice: once to hash, once to copy. The source should be quiescent (the node is down); a file whose size
 * changes between the two reads fails the pack, one whose bytes change in place shows up as a hash mismatch when
 * the archive is opened.
 *
 * <p>Entry names are the names' own bytes, whatever the locale: a name that is not UTF-8 (Linux allows any bytes)
 * is escaped ({@link EntryNames}: {@code ff 2e 6c 6f 67} is {@code %FF.log}), so two names that differ only in
 * such bytes stay two entries, and the manifest's {@code escaped_names} keeps each one's original bytes.
 *
 * <p>Nothing below the source is followed: symbolic links, sockets, FIFOs and devices are left out and listed in
 * the manifest's {@code skipped}. Files are opened with {@code NOFOLLOW_LINKS}, so one swapped for a link during the
 * pack fails it. The source path itself is resolved, since the operator named it.
 *
 * <p>The archive is written to a temp file beside {@code out}, forced to disk and renamed over {@code out}; on any
 * failure the temp file is deleted and {@code out}, if it existed, is untouched.
 */
public final class DumpWriter {
    private static final int COPY_BUFFER = 1 << 20;
    private static final int FILE_TYPE = 0100000;
    private static final int DIR_TYPE = 040000;
    private static final List<String> OTHER_CODECS = List.of(".gz", ".tgz", ".zst", ".xz", ".bz2", ".zip", ".7z");

    /** Called before each file's bytes are copied; lets tests change the source between hashing and copying. */
    interface Observer {
        Observer NONE = (tarPath, file) -> { };

        void beforeCopy(String tarPath, Path file) throws IOException;
    }

    public record PackResult(Path archive, long archiveBytes, Manifest manifest) {
    }

    private record Item(String tarPath, Path path, boolean directory, int mode, FileTime mtime, long size) {
    }

    private DumpWriter() {
    }

    public static PackResult pack(Path source, Path out) throws IOException {
        return pack(source, out, Observer.NONE);
    }

    static PackResult pack(Path source, Path out, Observer observer) throws IOException {
        Path target = out.toAbsolutePath().normalize();
        String outName = target.getFileName() == null ? "" : target.getFileName().toString();
        String lower = outName.toLowerCase(Locale.ROOT);
        for (String ext : OTHER_CODECS) {
            if (lower.endsWith(ext)) {
                throw new DumpException(out, "segtool packs .tar.lz4 or .tar, not " + ext);
            }
        }
        boolean compress = !lower.endsWith(".tar");
        Path root = source.toRealPath();
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            throw new DumpException(out, "source " + source + " is not a directory");
        }
        Path outDir = target.getParent().toRealPath();
        if (outDir.startsWith(root)) {
            throw new DumpException(out, "output lies inside the source " + root + "; it would pack itself");
        }
        EntryNames.Name rootEntry = root.getFileName() == null
                ? new EntryNames.Name("root", new byte[0], false) : EntryNames.of(root);
        String rootName = rootEntry.text();

        List<Item> items = new ArrayList<>();
        List<Manifest.Skipped> skipped = new ArrayList<>();
        List<Manifest.Escaped> escaped = new ArrayList<>();
        if (rootEntry.escaped()) {
            escaped.add(new Manifest.Escaped(rootName, EntryNames.hex(rootEntry.bytes())));
        }
        walk(root, rootName, rootEntry.bytes(), items, skipped, escaped);
        List<Manifest.FileEntry> files = new ArrayList<>();
        for (Item item : items) {
            if (!item.directory()) {
                files.add(new Manifest.FileEntry(item.tarPath(), item.size(), hash(out, item)));
            }
        }
        Manifest manifest = new Manifest(Manifest.FORMAT, rootName, EntryNames.display(root),
                Instant.now().toString(), files, skipped, escaped);

        Path temp = Files.createTempFile(outDir, "." + outName + ".", ".partial");
        boolean moved = false;
        try {
            long archiveBytes;
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                OutputStream sink = new BufferedOutputStream(new KeepOpen(Channels.newOutputStream(channel)), 1 << 16);
                OutputStream framed = compress
                        ? new LZ4FrameOutputStream(sink, LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB,
                                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                                LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)
                        : sink;
                try (TarArchiveOutputStream tar = new TarArchiveOutputStream(framed, StandardCharsets.UTF_8.name())) {
                    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                    tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
                    tar.setAddPaxHeadersForNonAsciiNames(true);
                    writeManifest(tar, manifest);
                    ByteBuffer buffer = ByteBuffer.allocate(COPY_BUFFER);
                    for (Item item : items) {
                        if (!item.directory()) {
                            observer.beforeCopy(item.tarPath(), item.path());
                        }
                        write(out, tar, item, buffer);
                    }
                    tar.finish();
                }
                channel.force(true);
                archiveBytes = channel.size();
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            moved = true;
            try {
                Directories.force(outDir);
            } catch (IOException e) {
                // in place but perhaps not on disk: take it back, so a dump that exists is a durable one
                Files.deleteIfExists(target);
                throw e;
            }
            return new PackResult(target, archiveBytes, manifest);
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Depth first, siblings by archive name, links and special files recorded instead of followed. Names come from
     * the directory's bytes ({@link EntryNames}): one that is not UTF-8 is escaped, made unique among its siblings
     * (those whose names are their own keep them), and listed in {@code escaped} with its original bytes.
     */
    private static void walk(Path dir, String tarPath, byte[] rawPath, List<Item> items,
                             List<Manifest.Skipped> skipped, List<Manifest.Escaped> escaped) throws IOException {
        BasicFileAttributes attrs = attributes(dir);
        items.add(new Item(tarPath, dir, true, mode(attrs, 0755), attrs.lastModifiedTime(), 0));
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            stream.forEach(found::add);
        }
        List<EntryNames.Name> names = new ArrayList<>();
        java.util.Set<String> taken = new java.util.HashSet<>();
        for (Path child : found) {
            EntryNames.Name n = EntryNames.of(child);
            names.add(n);
            if (!n.escaped()) {
                taken.add(n.text());
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            order.add(i);
        }
        // escaped names take their ~N suffixes in the order of their bytes, so the same directory packs the same way
        order.sort((a, b) -> java.util.Arrays.compareUnsigned(names.get(a).bytes(), names.get(b).bytes()));
        for (int i : order) {
            if (names.get(i).escaped()) {
                names.set(i, EntryNames.unique(names.get(i), taken));
            }
        }
        order.sort((a, b) -> names.get(a).text().compareTo(names.get(b).text()));
        for (int i : order) {
            Path child = found.get(i);
            EntryNames.Name name = names.get(i);
            String childPath = tarPath + "/" + name.text();
            byte[] childRaw = java.util.Arrays.copyOf(rawPath, rawPath.length + 1 + name.bytes().length);
            childRaw[rawPath.length] = '/';
            System.arraycopy(name.bytes(), 0, childRaw, rawPath.length + 1, name.bytes().length);
            if (name.escaped()) {
                escaped.add(new Manifest.Escaped(childPath, EntryNames.hex(childRaw)));
            }
            BasicFileAttributes a = attributes(child);
            if (a.isSymbolicLink()) {
                skipped.add(new Manifest.Skipped(childPath,
                        "symbolic link to '" + Files.readSymbolicLink(child) + "'"));
            } else if (a.isDirectory()) {
                walk(child, childPath, childRaw, items, skipped, escaped);
            } else if (a.isRegularFile()) {
                items.add(new Item(childPath, child, false, mode(a, 0644), a.lastModifiedTime(), a.size()));
            } else {
                skipped.add(new Manifest.Skipped(childPath, "not a regular file (socket, FIFO or device)"));
            }
        }
    }

    private static BasicFileAttributes attributes(Path p) throws IOException {
        if (TempTree.isPosix(p)) {
            return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        }
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    private static int mode(BasicFileAttributes attrs, int fallback) {
        return attrs instanceof PosixFileAttributes posix ? TempTree.bits(posix.permissions()) : fallback;
    }

    private static long hash(Path out, Item item) throws IOException {
        try (FileChannel channel = FileChannel.open(item.path(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (channel.size() != item.size()) {
                throw changed(out, item, channel.size());
            }
            return FileXxh3.hash(channel, item.size(), FileXxh3.DEFAULT_WINDOW);
        }
    }

    private static void writeManifest(TarArchiveOutputStream tar, Manifest manifest) throws IOException {
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        manifest.writeTo(json);
        TarArchiveEntry entry = new TarArchiveEntry(Manifest.NAME, TarConstants.LF_NORMAL);
        entry.setMode(FILE_TYPE | 0444);
        entry.setSize(json.size());
        entry.setLastModifiedTime(FileTime.from(Instant.now()));
        anonymous(entry);
        tar.putArchiveEntry(entry);
        json.writeTo(tar);
        tar.closeArchiveEntry();
    }

    private static void write(Path out, TarArchiveOutputStream tar, Item item, ByteBuffer buffer) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(item.directory() ? item.tarPath() + "/" : item.tarPath(),
                item.directory() ? TarConstants.LF_DIR : TarConstants.LF_NORMAL);
        entry.setMode((item.directory() ? DIR_TYPE : FILE_TYPE) | item.mode());
        entry.setLastModifiedTime(item.mtime());
        entry.setSize(item.size());
        anonymous(entry);
        tar.putArchiveEntry(entry);
        if (!item.directory()) {
            try (FileChannel channel = FileChannel.open(item.path(), StandardOpenOption.READ,
                    LinkOption.NOFOLLOW_LINKS)) {
                if (channel.size() != item.size()) {
                    throw changed(out, item, channel.size());
                }
                long position = 0;
                while (position < item.size()) {
                    buffer.clear().limit((int) Math.min(buffer.capacity(), item.size() - position));
                    int n = channel.read(buffer, position);
                    if (n < 0) {
                        throw changed(out, item, position);
                    }
                    tar.write(buffer.array(), 0, n);
                    position += n;
                }
            }
        }
        tar.closeArchiveEntry();
    }

    /** The packing user's name and ids say nothing about the data; extraction never sets owners. */
    private static void anonymous(TarArchiveEntry entry) {
        entry.setUserId(0);
        entry.setGroupId(0);
        entry.setUserName("");
        entry.setGroupName("");
    }

    private static DumpException changed(Path out, Item item, long now) {
        return new DumpException(out, item.tarPath(), -1, -1,
                "source file changed while packing: " + item.size() + " bytes when hashed, " + now + " now", null);
    }


    /** Lets the tar and LZ4 streams finish and flush into the channel without closing it, so it can be forced. */
    private static final class KeepOpen extends FilterOutputStream {
        KeepOpen(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
