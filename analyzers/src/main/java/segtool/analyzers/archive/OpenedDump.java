package segtool.analyzers.archive;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An archive extracted into a private temp directory. {@link #root()} is used like any data or partition directory
 * for as long as this is open; {@link #close()} removes the whole extraction.
 */
public final class OpenedDump implements AutoCloseable {
    private final Path archive;
    private final Container container;
    private final Path directory;
    private final Path root;
    private final Manifest manifest;
    private final ManifestStatus manifestStatus;
    private final long files;
    private final long bytes;
    private boolean closed;

    OpenedDump(Path archive, Container container, Path directory, Path root, Manifest manifest,
               ManifestStatus manifestStatus, long files, long bytes) {
        this.archive = archive;
        this.container = container;
        this.directory = directory;
        this.root = root;
        this.manifest = manifest;
        this.manifestStatus = manifestStatus;
        this.files = files;
        this.bytes = bytes;
    }

    public Path archive() {
        return archive;
    }

    public Container container() {
        return container;
    }

    /**
     * The extracted top directory: the single top-level directory when the archive has one (a segtool pack always
     * does: the source directory's name), otherwise the extraction directory itself (an archive of loose files, or
     * a bare compressed file, which lands there under the archive's name minus {@code .lz4}/{@code .gz}).
     */
    public Path root() {
        return root;
    }

    /** The private temp directory everything was extracted into; {@link #root()} is it or its only child. */
    public Path extractionDirectory() {
        return directory;
    }

    public Optional<Manifest> manifest() {
        return Optional.ofNullable(manifest);
    }

    public ManifestStatus manifestStatus() {
        return manifestStatus;
    }

    /** Regular files extracted. */
    public long files() {
        return files;
    }

    /** Bytes extracted. */
    public long bytes() {
        return bytes;
    }

    /** Removes the extraction. Idempotent. */
    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            TempTree.delete(directory);
            closed = true;
        }
    }
}
