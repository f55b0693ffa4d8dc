package segtool.analyzers.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.tar.TarUtils;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import segtool.formats.io.TempDirectory;

/**
 * Opens a crash-dump archive as a directory: extracts it into a private temp directory under {@link Limits} and
 * checks it against its {@link Manifest}.
 *
 * <p>Accepted: {@code .tar}, {@code .tar.lz4}, {@code .tar.gz}/{@code .tgz}, and a bare {@code .lz4} (or
 * {@code .gz}) holding either a tar or one file. The wrapping is recognised by magic bytes (LZ4 frame
 * {@code 04 22 4D 18} or a skippable frame, gzip {@code 1F 8B}, {@code ustar} at 257 or a valid v7 header
 * checksum); the name only decides whether a compressed stream whose first block is not a tar header is refused
 * (the name says tar) or taken as one file.
 *
 * <p>Refused with a {@link DumpException}, after which the temp directory is gone:
 * <ul>
 *   <li>entry names that are absolute, carry a drive letter, a {@code ..} component, a backslash or a NUL;</li>
 *   <li><b>every</b> symbolic link, whether its target stays inside the root or not (the message says which):
 *       resolving a link target safely needs every earlier link on its path resolved too; refusing them all is
 *       the rule that cannot be got wrong; and every hard link whose target is not a file entry extracted
 *       earlier from the same archive (one that is, as {@code tar} archives a WAL's retained segment link, is
 *       extracted as a link to that file);</li>
 *   <li>character and block devices, FIFOs, sparse entries (they expand to their declared real size), GNU
 *       dump-directories, and any entry type other than file or directory;</li>
 *   <li>the same path twice, or a file where a directory was (and the reverse);</li>
 *   <li>more than {@link Limits#maxEntries()} entries; a file over {@link Limits#maxEntryBytes()}; extracted bytes
 *       over {@link Limits#maxTotalBytes()} or the expansion budget {@link Limits#ratioBudget}; tar metadata over
 *       {@link Limits#maxHeaderBytes()}; a manifest over {@link Limits#maxManifestBytes()}; an entry larger than
 *       the usable space left in the temp directory. Declared sizes are checked before a byte is written, and
 *       every write is counted, so nothing is written past a limit;</li>
 *   <li>a truncated or corrupt tar, LZ4 frame or gzip stream, including a tar that ends without its end-of-archive
 *       marker (a copy cut at a 512-byte boundary), and a file that is none of the accepted formats.</li>
 * </ul>
 * A PAX {@code path} record that is absolute is not seen as such: commons-compress strips its leading '/' while
 * parsing, so such an entry lands inside the root, never outside it.
 *
 * <p>Extracted files keep their permission bits (setuid, setgid and sticky dropped) and modification times. The
 * owner always gets read and write on files and rwx on directories, so the extraction can be read and removed;
 * everything sits under a directory only the owner can enter.
 */
public final class DumpReader {
    private static final int SNIFF = 512;
    private static final int RECORD = 512;
    /** After the end-of-archive marker commons-compress reads on to the end of its 10240-byte block. */
    private static final int TAR_BLOCK = 10240;
    private static final int COPY_BUFFER = 1 << 20;
    /** The copy buffer of a smaller archive: its size, but at least this (a compressed one expands). */
    private static final int SMALL_COPY_BUFFER = 64 << 10;
    private static final String FALLBACK_NAME = "content";

    /** Told the running total after every write; lets tests prove nothing went past a limit. */
    interface Observer {
        Observer NONE = total -> { };

        void wrote(long totalBytes);
    }

    private DumpReader() {
    }

    /** Opens with {@link Limits#DEFAULT}, extracting under {@link TempDirectory#get()} ({@code $TMPDIR}). */
    public static OpenedDump open(Path archive) throws IOException {
        return open(archive, Limits.DEFAULT);
    }

    /** Opens extracting under {@link TempDirectory#get()}: {@code $TMPDIR}, else {@code java.io.tmpdir}. */
    public static OpenedDump open(Path archive, Limits limits) throws IOException {
        return open(archive, limits, TempDirectory.get());
    }

    /** Opens extracting into a new private directory under {@code tempParent}. */
    public static OpenedDump open(Path archive, Limits limits, Path tempParent) throws IOException {
        return open(archive, limits, tempParent, Observer.NONE);
    }

    static OpenedDump open(Path archive, Limits limits, Path tempParent, Observer observer) throws IOException {
        return new Extraction(archive, null, limits, tempParent, observer).run();
    }

    /**
     * Opens {@code content}, the bytes of an archive named {@code archive} that are already in memory, as the file
     * would be opened: the name decides what the name decides, the bytes everything else (the fuzz targets).
     */
    static OpenedDump open(Path archive, byte[] content, Limits limits, Path tempParent, Observer observer)
            throws IOException {
        return new Extraction(archive, content, limits, tempParent, observer).run();
    }

    private enum Wrapping { NONE, LZ4, GZIP }

    private record DirectoryMode(Path path, int mode, FileTime mtime) {
    }

    /** One open: the streams, the counters the limits are checked against, and what has been extracted. */
    private static final class Extraction {
        private final Path archive;
        private final Limits limits;
        private final Path tempParent;
        private final Observer observer;
        /** The archive's bytes when they are in memory; null: read the file {@link #archive}. */
        private final byte[] content;
        private ByteBuffer buffer;
        private final Map<String, Path> extracted = new LinkedHashMap<>();
        private final List<DirectoryMode> directories = new ArrayList<>();

        private Container container;
        private Path dir;
        private CountingInput raw;
        private CountingInput tarIn;
        private long archiveBytes;
        private long budget;
        private boolean ratioBound;
        private long written;
        private int entries;
        private boolean manifestSeen;
        private Manifest manifest;
        private String manifestError;

        Extraction(Path archive, byte[] content, Limits limits, Path tempParent, Observer observer) {
            this.archive = archive;
            this.content = content;
            this.limits = limits;
            this.tempParent = tempParent;
            this.observer = observer;
        }

        OpenedDump run() throws IOException {
            if (content != null) {
                archiveBytes = content.length;
            } else {
                BasicFileAttributes attrs = Files.readAttributes(archive, BasicFileAttributes.class);
                if (!attrs.isRegularFile()) {
                    throw new DumpException(archive, "not a regular file");
                }
                archiveBytes = attrs.size();
            }
            long ratioBudget = limits.ratioBudget(archiveBytes);
            ratioBound = ratioBudget < limits.maxTotalBytes();
            budget = Math.min(limits.maxTotalBytes(), ratioBudget);
            Wrapping wrapping = sniff(head());

            try {
                dir = TempTree.create(tempParent);
            } catch (IOException e) {
                throw new DumpException(archive, e.getMessage(), e);
            }
            try (InputStream file = input()) {
                raw = new CountingInput(new BufferedInputStream(file, 1 << 16));
                InputStream content = unwrap(wrapping);
                if (container.tar()) {
                    extractTar(content);
                } else {
                    extractSingle(content);
                }
                ManifestStatus status = verify();
                applyDirectoryModes();
                return new OpenedDump(archive, container, dir, topDirectory(), manifest, status, extracted.size(),
                        written);
            } catch (Throwable t) {
                TempTree.deleteAfterFailure(dir, t);
                throw t;
            }
        }

        private byte[] head() throws IOException {
            try (InputStream in = input()) {
                return in.readNBytes(SNIFF);
            }
        }

        private InputStream input() throws IOException {
            return content != null ? new ByteArrayInputStream(content) : Files.newInputStream(archive);
        }

        /**
         * Bytes usable in the extraction directory: one statvfs(2) (Files.getFileStore would read the whole mount
         * table first, on every open); a FileStore's count on a file system that has no {@code java.io.File}.
         * {@code File.getUsableSpace} answers 0 when statvfs fails, so a 0 is asked again through the FileStore,
         * whose failure carries the OS reason.
         */
        private long usableSpace() throws IOException {
            if (dir.getFileSystem() == FileSystems.getDefault()) {
                long usable = dir.toFile().getUsableSpace();
                if (usable > 0) {
                    return usable;
                }
            }
            return Files.getFileStore(dir).getUsableSpace();
        }

        /** The copy buffer, taken when the first entry's bytes are copied: no larger than the archive needs. */
        private ByteBuffer buffer() {
            if (buffer == null) {
                buffer = ByteBuffer.allocate((int) Math.min(COPY_BUFFER, Math.max(SMALL_COPY_BUFFER, archiveBytes)));
            }
            return buffer;
        }

        private Wrapping sniff(byte[] head) throws DumpException {
            if (isLz4(head)) {
                return Wrapping.LZ4;
            }
            if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
                return Wrapping.GZIP;
            }
            if (looksLikeTar(head, lowerName().endsWith(".tar"))) {
                container = Container.TAR;
                return Wrapping.NONE;
            }
            if (head.length == 0) {
                throw new DumpException(archive, "empty file");
            }
            String first = hex(head, 4);
            if (lowerName().endsWith(".lz4")) {
                throw new DumpException(archive, "not a valid LZ4 frame: starts " + first + ", expected 04 22 4d 18");
            }
            throw new DumpException(archive, "not a tar, LZ4 frame or gzip stream: starts " + first);
        }

        /** Opens the decompressor and decides, from the first 512 decompressed bytes, tar or one file. */
        private InputStream unwrap(Wrapping wrapping) throws IOException {
            if (wrapping == Wrapping.NONE) {
                return raw;
            }
            container = wrapping == Wrapping.LZ4 ? Container.LZ4_FILE : Container.GZIP_FILE;
            InputStream decompressed;
            try {
                decompressed = wrapping == Wrapping.LZ4 ? new LZ4FrameInputStream(raw)
                        : new GzipCompressorInputStream(raw, true);
            } catch (IOException | RuntimeException e) {
                throw corrupt(null, -1, wrapping == Wrapping.LZ4 ? "not a valid LZ4 frame" : "not a valid gzip stream",
                        e);
            }
            BufferedInputStream peek = new BufferedInputStream(decompressed, 1 << 16);
            String inner = innerName();
            boolean nameSaysTar = inner.toLowerCase(Locale.ROOT).endsWith(".tar");
            byte[] first;
            try {
                peek.mark(SNIFF);
                first = peek.readNBytes(SNIFF);
                peek.reset();
            } catch (IOException | RuntimeException e) {
                throw corrupt(null, -1, "truncated or corrupt " + (wrapping == Wrapping.LZ4 ? "LZ4 frame"
                        : "gzip stream"), e);
            }
            if (looksLikeTar(first, nameSaysTar)) {
                container = wrapping == Wrapping.LZ4 ? Container.TAR_LZ4 : Container.TAR_GZIP;
            } else if (nameSaysTar) {
                throw fail(null, 0, "the name says tar, but the decompressed data does not start with a tar header");
            }
            return peek;
        }

        private void extractTar(InputStream content) throws IOException {
            tarIn = new CountingInput(content);
            TarArchiveInputStream tar = new TarArchiveInputStream(tarIn, StandardCharsets.UTF_8.name());
            long next = 0;
            while (true) {
                // Metadata (PAX records, GNU long names) is read into memory by commons-compress: cap it here.
                tarIn.ceiling(next + limits.maxHeaderBytes() + TAR_BLOCK);
                TarArchiveEntry entry;
                try {
                    entry = tar.getNextEntry();
                } catch (IOException | RuntimeException e) {
                    if (ceilingReached(e)) {
                        throw fail(null, next, "tar metadata (PAX records, GNU long names) in front of the entry "
                                + "starting here exceeds " + limits.maxHeaderBytes() + " bytes");
                    }
                    throw corrupt(null, tarIn.count(), "truncated or corrupt " + container.description(), e);
                } finally {
                    tarIn.clearCeiling();
                }
                if (entry == null) {
                    if (tarIn.count() < next + RECORD) {
                        throw fail(null, tarIn.count(), "archive ends without the tar end-of-archive marker "
                                + "(truncated at an entry boundary)");
                    }
                    return;
                }
                long dataAt = tarIn.count();
                if (++entries > limits.maxEntries()) {
                    throw fail(entry.getName(), next, "more than " + limits.maxEntries() + " entries (entry limit)");
                }
                extractEntry(tar, entry, next);
                // Every accepted entry's data was read to its end; the next header starts after the padding.
                next = dataAt + roundUp(entry.getSize());
            }
        }

        private void extractEntry(TarArchiveInputStream tar, TarArchiveEntry e, long at) throws IOException {
            String name = e.getName();
            String rel = relative(name, at);
            if (e.isSymbolicLink()) {
                String target = e.getLinkName();
                throw fail(name, at, "symbolic link to '" + target + "' " + (escapes(parent(rel), target)
                        ? "resolves outside the archive root" : "(links are never extracted, even inside the root)"));
            }
            if (e.isLink()) {
                extractHardLink(e, rel, at);
                return;
            }
            if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO()) {
                String kind = e.isFIFO() ? "FIFO" : e.isCharacterDevice() ? "character device" : "block device";
                throw fail(name, at, kind + " entries are not extracted");
            }
            if (e.isSparse()) {
                throw fail(name, at, "sparse entry (expands to " + e.getRealSize() + " bytes) is not extracted");
            }
            if (e.isDirectory()) {
                if (e.getSize() != 0) {
                    throw fail(name, at, "directory entry carries " + e.getSize() + " data bytes (type '"
                            + (char) e.getLinkFlag() + "')");
                }
                makeDirectory(rel, e, at);
                return;
            }
            byte type = e.getLinkFlag();
            if (type != TarConstants.LF_NORMAL && type != TarConstants.LF_OLDNORM && type != TarConstants.LF_CONTIG) {
                throw fail(name, at, "unsupported entry type '" + DumpException.printable(String.valueOf((char) type))
                        + "'");
            }
            if (rel.isEmpty()) {
                throw fail(name, at, "a file entry cannot name the archive root");
            }
            if (rel.equals(Manifest.NAME)) {
                readManifest(tar, e, at);
                return;
            }
            extractFile(tar, e, rel, at);
        }

        /** The entry name made relative: '.' and empty components dropped; anything that could escape refused. */
        private String relative(String name, long at) throws DumpException {
            if (name.isEmpty()) {
                throw fail(name, at, "empty entry name");
            }
            if (name.indexOf('\0') >= 0) {
                throw fail(name, at, "NUL in entry name");
            }
            if (name.indexOf('\\') >= 0) {
                throw fail(name, at, "backslash in entry name (a separator elsewhere)");
            }
            if (name.startsWith("/")) {
                throw fail(name, at, "absolute path");
            }
            if (name.length() >= 2 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0))) {
                throw fail(name, at, "absolute path (drive letter)");
            }
            List<String> parts = new ArrayList<>();
            for (String part : name.split("/")) {
                if (part.equals("..")) {
                    throw fail(name, at, "path has a '..' component");
                }
                if (!part.isEmpty() && !part.equals(".")) {
                    parts.add(part);
                }
            }
            return String.join("/", parts);
        }

        private Path destination(String rel, String name, long at) throws DumpException {
            Path p = dir.resolve(rel).normalize();
            if (!p.startsWith(dir)) {
                throw fail(name, at, "path resolves outside the archive root");
            }
            return p;
        }

        private void makeDirectory(String rel, TarArchiveEntry e, long at) throws IOException {
            if (rel.isEmpty()) {
                return;     // "./": the extraction directory itself, which stays owner-only
            }
            Path d = destination(rel, e.getName(), at);
            createDirectories(d, e.getName(), at);
            directories.add(new DirectoryMode(d, (e.getMode() & 0777) | 0700, e.getLastModifiedTime()));
        }

        private void createDirectories(Path d, String name, long at) throws DumpException {
            try {
                Files.createDirectories(d);
            } catch (IOException e) {
                for (Path p = d; p.startsWith(dir) && !p.equals(dir); p = p.getParent()) {
                    if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        throw fail(name, at, "path conflicts with an earlier file entry '" + dir.relativize(p) + "'");
                    }
                }
                throw fail(name, at, "cannot create directory in " + dir + ": " + e);
            }
        }

        private void extractFile(TarArchiveInputStream tar, TarArchiveEntry e, String rel, long at)
                throws IOException {
            String name = e.getName();
            long size = e.getSize();
            if (size > limits.maxEntryBytes()) {
                throw fail(name, at, "entry of " + size + " bytes exceeds the per-entry limit of "
                        + limits.maxEntryBytes() + " bytes");
            }
            Path file = reserve(rel, name, size, at);
            long copied = copyInto(tar, file, name, at);
            if (copied != size) {
                throw fail(name, tarIn.count(), "entry holds " + copied + " bytes, its header says " + size);
            }
            try {
                TempTree.setModeAndTime(file, (e.getMode() & 0777) | 0600, e.getLastModifiedTime());
            } catch (IOException ex) {
                throw fail(name, at, "cannot set mode or time: " + ex);
            }
            extracted.put(rel, file);
        }

        /**
         * Checks that {@code size} more bytes fit the expansion budget and the free space, and makes the entry's
         * parent directories; returns where the entry goes.
         */
        private Path reserve(String rel, String name, long size, long at) throws IOException {
            if (size > budget - written) {
                throw fail(name, at, overBudget(size));
            }
            long usable = usableSpace();
            if (size > usable) {
                throw fail(name, at, "needs " + size + " bytes, only " + usable + " usable under " + tempParent);
            }
            Path file = destination(rel, name, at);
            createDirectories(file.getParent(), name, at);
            return file;
        }

        /**
         * A hard link whose target is a file entry extracted earlier from this archive (tar names the target from
         * the archive root): extracted as a hard link to that file, so the two names share an inode as they did on
         * the node (a copy, under the same limits as any entry, where the file system cannot link). A WAL's
         * {@code prepares-<rev>/segment-*.log} is archived this way by {@code tar}. Any other target is refused.
         */
        private void extractHardLink(TarArchiveEntry e, String rel, long at) throws IOException {
            String name = e.getName();
            String target = e.getLinkName();
            if (escapes("", target)) {
                throw fail(name, at, "hard link to '" + target + "' resolves outside the archive root");
            }
            String targetRel = relative(target, at);
            Path source = extracted.get(targetRel);
            if (source == null) {
                throw fail(name, at, "hard link to '" + target + "', which is not an earlier file entry of the "
                        + "archive");
            }
            if (rel.isEmpty() || rel.equals(Manifest.NAME)) {
                throw fail(name, at, "a hard link cannot name " + (rel.isEmpty() ? "the archive root" : Manifest.NAME));
            }
            // a link inside the private extraction root to a file already extracted and checked: the same inode, as
            // on the node (the WAL's relink check compares inodes, METADATA 6.7), with that file's mode and time;
            // a copy where the file system cannot link
            Path file = destination(rel, name, at);
            createDirectories(file.getParent(), name, at);
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                throw fail(name, at, "duplicate entry: the path was already extracted");
            }
            try {
                Files.createLink(file, source);
            } catch (UnsupportedOperationException | java.nio.file.FileSystemException cannotLink) {
                reserve(rel, name, Files.size(source), at);
                try (InputStream in = Files.newInputStream(source, LinkOption.NOFOLLOW_LINKS)) {
                    copyInto(in, file, name, at);
                }
                try {
                    TempTree.setModeAndTime(file, (e.getMode() & 0777) | 0600, e.getLastModifiedTime());
                } catch (IOException ex) {
                    throw fail(name, at, "cannot set mode or time: " + ex);
                }
            }
            extracted.put(rel, file);
        }

        /** A bare compressed file: one entry, named after the archive, whose size is known only at its end. */
        private void extractSingle(InputStream content) throws IOException {
            String name = innerName();
            if (name.isEmpty() || name.equals(".") || name.equals("..") || name.equals(Manifest.NAME)) {
                name = FALLBACK_NAME;
            }
            Path file = destination(name, name, -1);
            copyInto(content, file, name, -1);
            extracted.put(name, file);
        }

        /** Streams one entry into a new file; every chunk is checked against the limits before it is written. */
        private long copyInto(InputStream in, Path file, String name, long at) throws IOException {
            long copied = 0;
            ByteBuffer buffer = buffer();
            try (FileChannel out = openNew(file, name, at)) {
                while (true) {
                    buffer.clear();
                    int n;
                    try {
                        n = in.read(buffer.array(), 0, buffer.capacity());
                    } catch (IOException | RuntimeException e) {
                        throw corrupt(name, position(), "truncated or corrupt " + container.description(), e);
                    }
                    if (n < 0) {
                        return copied;
                    }
                    if (copied + n > limits.maxEntryBytes()) {
                        throw fail(name, position(), "entry exceeds the per-entry limit of " + limits.maxEntryBytes()
                                + " bytes");
                    }
                    if (n > budget - written) {
                        throw fail(name, position(), overBudget(n));
                    }
                    buffer.limit(n);
                    try {
                        while (buffer.hasRemaining()) {
                            out.write(buffer);
                        }
                    } catch (IOException e) {
                        throw fail(name, at, "cannot write " + file + ": " + e);
                    }
                    copied += n;
                    written += n;
                    observer.wrote(written);
                }
            }
        }

        private FileChannel openNew(Path file, String name, long at) throws DumpException {
            try {
                return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS);
            } catch (FileAlreadyExistsException e) {
                throw fail(name, at, "duplicate entry: the path was already extracted");
            } catch (IOException e) {
                throw fail(name, at, "cannot create " + file + ": " + e);
            }
        }

        private void readManifest(TarArchiveInputStream tar, TarArchiveEntry e, long at) throws IOException {
            if (manifestSeen) {
                throw fail(e.getName(), at, "second manifest entry");
            }
            manifestSeen = true;
            if (e.getSize() > limits.maxManifestBytes()) {
                throw fail(e.getName(), at, "manifest of " + e.getSize() + " bytes exceeds the limit of "
                        + limits.maxManifestBytes() + " bytes");
            }
            InputStream body = new FilterInputStream(tar) {
                @Override
                public void close() {
                    // The tar stream outlives the manifest.
                }
            };
            try {
                manifest = Manifest.readFrom(body);
            } catch (JsonProcessingException ex) {
                manifestError = ex.getOriginalMessage();
            } catch (IOException | RuntimeException ex) {
                throw corrupt(e.getName(), tarIn.count(), "truncated or corrupt " + container.description(), ex);
            }
            try {
                byte[] drain = buffer().array();
                while (tar.read(drain, 0, drain.length) >= 0) {
                    // Drain what the parser left, so the next header is where the entry's size says.
                }
            } catch (IOException | RuntimeException ex) {
                throw corrupt(e.getName(), tarIn.count(), "truncated or corrupt " + container.description(), ex);
            }
        }

        /** Size and XXH3-64 of every listed file, then anything extracted that the manifest does not list. */
        private ManifestStatus verify() throws IOException {
            if (manifestError != null) {
                return new ManifestStatus.Mismatch(List.of(new ManifestProblem(
                        ManifestProblem.Kind.INVALID_MANIFEST, Manifest.NAME, null, manifestError)));
            }
            if (manifest == null) {
                return new ManifestStatus.Absent();
            }
            if (!Manifest.FORMAT.equals(manifest.format())) {
                return new ManifestStatus.Mismatch(List.of(new ManifestProblem(ManifestProblem.Kind.INVALID_MANIFEST,
                        Manifest.NAME, Manifest.FORMAT, "format '" + manifest.format() + "' is not supported")));
            }
            List<ManifestProblem> problems = new ArrayList<>();
            Set<String> listed = new HashSet<>();
            long bytes = 0;
            for (Manifest.FileEntry f : manifest.files()) {
                if (!listed.add(f.path())) {
                    problems.add(new ManifestProblem(ManifestProblem.Kind.INVALID_MANIFEST, f.path(), null,
                            "listed twice"));
                    continue;
                }
                Path p = extracted.get(f.path());
                if (p == null) {
                    problems.add(new ManifestProblem(ManifestProblem.Kind.MISSING, f.path(), null, null));
                    continue;
                }
                long size = Files.size(p);
                if (size != f.size()) {
                    problems.add(new ManifestProblem(ManifestProblem.Kind.SIZE, f.path(), Long.toString(f.size()),
                            Long.toString(size)));
                    continue;
                }
                long hash = FileXxh3.hash(p);
                if (hash != f.xxh3()) {
                    problems.add(new ManifestProblem(ManifestProblem.Kind.HASH, f.path(),
                            segtool.formats.hash.Xxh3.hex(f.xxh3()), segtool.formats.hash.Xxh3.hex(hash)));
                }
                bytes += size;
            }
            for (String path : extracted.keySet()) {
                if (!listed.contains(path)) {
                    problems.add(new ManifestProblem(ManifestProblem.Kind.EXTRA, path, null, null));
                }
            }
            return problems.isEmpty() ? new ManifestStatus.Verified(listed.size(), bytes)
                    : new ManifestStatus.Mismatch(problems);
        }

        /** Last, deepest first: creating children changes a directory's time, and a read-only one takes none. */
        private void applyDirectoryModes() throws IOException {
            directories.sort(Comparator.comparingInt((DirectoryMode d) -> d.path().getNameCount()).reversed());
            for (DirectoryMode d : directories) {
                TempTree.setModeAndTime(d.path(), d.mode(), d.mtime());
            }
        }

        private Path topDirectory() throws IOException {
            List<Path> children = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
                stream.forEach(children::add);
            }
            if (children.size() == 1 && Files.isDirectory(children.get(0), LinkOption.NOFOLLOW_LINKS)) {
                return children.get(0);
            }
            return dir;
        }

        private String overBudget(long more) {
            if (ratioBound) {
                return "extracting " + more + " more bytes after " + written + " would pass " + budget
                        + " bytes, " + limits.maxExpansionRatio() + "x the archive's " + archiveBytes
                        + " bytes (expansion limit)";
            }
            return "extracting " + more + " more bytes after " + written + " would pass the limit of " + budget
                    + " bytes in total";
        }

        private long position() {
            return tarIn != null ? tarIn.count() : -1;
        }

        private DumpException fail(String entry, long tarAt, String reason) {
            return new DumpException(archive, entry, tarAt, archivePosition(), reason, null);
        }

        /** A read that failed: the decompressor's or the tar parser's own words follow {@code what}. */
        private DumpException corrupt(String entry, long tarAt, String what, Throwable cause) {
            if (cause instanceof DumpException d) {
                return d;
            }
            String detail = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
            long at = tarAt < 0 && !container.compressed() ? raw.count() : tarAt;
            return new DumpException(archive, entry, at, archivePosition(), what + ": " + detail, cause);
        }

        /** Compressed bytes consumed so far; -1 for a plain tar, where the tar position is the archive position. */
        private long archivePosition() {
            return container != null && container.compressed() && raw != null ? raw.count() : -1;
        }

        private String lowerName() {
            Path name = archive.getFileName();
            return name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        }

        /** The archive's name without its compression suffix: {@code x.tar.lz4 -> x.tar}, {@code x.tgz -> x.tar}. */
        private String innerName() {
            String name = archive.getFileName() == null ? "" : archive.getFileName().toString();
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.endsWith(".tgz")) {
                return name.substring(0, name.length() - 4) + ".tar";
            }
            if (lower.endsWith(".lz4")) {
                return name.substring(0, name.length() - 4);
            }
            if (lower.endsWith(".gz")) {
                return name.substring(0, name.length() - 3);
            }
            return name;
        }
    }

    private static boolean ceilingReached(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CountingInput.CeilingReached) {
                return true;
            }
        }
        return false;
    }

    /** LZ4 frame magic 0x184D2204, or a skippable frame 0x184D2A5x, little-endian. */
    static boolean isLz4(byte[] head) {
        if (head.length < 4) {
            return false;
        }
        int magic = (head[0] & 0xff) | (head[1] & 0xff) << 8 | (head[2] & 0xff) << 16 | (head[3] & 0xff) << 24;
        return magic == 0x184D2204 || (magic & 0xFFFFFFF0) == 0x184D2A50;
    }

    /** A ustar/GNU magic, or a v7 header whose checksum holds; an all-zero block counts only if the name says tar. */
    static boolean looksLikeTar(byte[] block, boolean nameSaysTar) {
        if (TarArchiveInputStream.matches(block, block.length)) {
            return true;
        }
        if (block.length < RECORD) {
            return false;
        }
        boolean zero = true;
        for (byte b : block) {
            if (b != 0) {
                zero = false;
                break;
            }
        }
        if (zero) {
            return nameSaysTar;
        }
        try {
            return TarUtils.verifyCheckSum(block);
        } catch (IllegalArgumentException e) {
            return false;   // the checksum field is not octal: not a header
        }
    }

    /** True when {@code target}, taken from directory {@code base} of the root, climbs above the root. */
    static boolean escapes(String base, String target) {
        if (target.startsWith("/")) {
            return true;
        }
        int depth = base.isEmpty() ? 0 : base.split("/").length;
        for (String part : target.split("/")) {
            if (part.equals("..")) {
                if (--depth < 0) {
                    return true;
                }
            } else if (!part.isEmpty() && !part.equals(".")) {
                depth++;
            }
        }
        return false;
    }

    private static String parent(String rel) {
        int slash = rel.lastIndexOf('/');
        return slash < 0 ? "" : rel.substring(0, slash);
    }

    private static long roundUp(long size) {
        return (size + RECORD - 1) / RECORD * RECORD;
    }

    private static String hex(byte[] bytes, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(n, bytes.length); i++) {
            s.append(i == 0 ? "" : " ").append(String.format("%02x", bytes[i] & 0xff));
        }
        return s.toString();
    }
}
