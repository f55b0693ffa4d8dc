package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories on tmpfs ({@code /dev/shm}) when there is one. The exception-injection tests model a crash
 * as "the process stops here", which does not depend on the disk; on tmpfs their hundreds of fsyncs cost nothing.
 * Durability on a real disk is what the kill -9 and fixpoint tests (default temp directory) exercise.
 */
public final class FastTempDir implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext extension) throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return Files.createTempDirectory(shm, "segtool-junit-");
        }
        return Files.createTempDirectory("segtool-junit-");
    }
}
