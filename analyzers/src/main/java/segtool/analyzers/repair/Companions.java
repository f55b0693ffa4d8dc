package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which partitions have something beside them that belongs to them: a {@code <partition>.fenced.<n>} directory or a
 * {@code <partition>.segtool-quarantine.<time>} directory. Finding either means listing the parent directory, and a
 * run over a data directory asked once per partition, so 10,000 partitions under one {@code partitions/} listed
 * 10,000 entries 10,000 times. This lists each parent once, when first asked, and remembers the names in it that
 * could be such a companion; {@link Quarantine#of} and {@code Salvager.fences} are then asked only for partitions
 * that may have one. The answer is as of that listing: a caller that creates companions itself (an apply) asks the
 * directory again rather than this.
 */
public final class Companions {
    private static final String FENCED = ".fenced.";

    private final Map<Path, Set<String>> owners = new HashMap<>();

    /**
     * Whether something beside {@code partition} is named {@code <its name>.fenced.*} or
     * {@code <its name>.segtool-quarantine.*}; true also when the parent cannot be listed, so that the caller's own
     * listing meets (and reports) the error.
     */
    public boolean mayHave(Path partition) {
        Path abs = partition.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        if (parent == null || abs.getFileName() == null) {
            return true;
        }
        Set<String> names = owners.computeIfAbsent(parent, Companions::owners);
        return names == null || names.contains(abs.getFileName().toString());
    }

    /** Every prefix that stands before ".fenced." or the quarantine marker in a name of {@code parent}; null: unknown. */
    private static Set<String> owners(Path parent) {
        Set<String> out = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(parent)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                for (String marker : new String[]{FENCED, Quarantine.MARKER}) {
                    for (int at = name.indexOf(marker); at > 0; at = name.indexOf(marker, at + 1)) {
                        out.add(name.substring(0, at));
                    }
                }
            }
        } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException gone) {
            return out;
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return out;
    }
}
