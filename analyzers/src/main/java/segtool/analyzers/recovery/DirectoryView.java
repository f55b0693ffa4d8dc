package segtool.analyzers.recovery;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A partition directory as a step that runs before segment recovery will leave it, seen without changing a byte:
 * the prepare WAL's open (METADATA 6.7, RECOVERY 9 step 0). Three kinds of difference from the directory on disk,
 * each keyed by a file name in the partition directory:
 * <ul>
 *   <li>{@code removed}: the name is gone (the open deletes it);</li>
 *   <li>{@code readAs}: the name reads another file, given relative to the partition directory (the open re-links
 *       the public {@code <S>.log} to the inode it retains as {@code prepares-<rev>/segment-<g>-<S>.log}); the name
 *       exists afterwards even if it does not now;</li>
 *   <li>{@code limits}: the name reads only its first {@code n} bytes (the open truncates the inode).</li>
 * </ul>
 * {@link #AS_IS} is the directory as it is: every lookup then returns what it was given, so the ordinary load takes
 * the same path it always did. The sweep ({@link Sweep#of(Path, DirectoryView)}), the stats and the log opens of
 * the recovery engine go through the view; nothing else does.
 */
public record DirectoryView(Set<String> removed, Map<String, String> readAs, Map<String, Long> limits) {
    public static final DirectoryView AS_IS = new DirectoryView(Set.of(), Map.of(), Map.of());

    public DirectoryView {
        removed = Set.copyOf(new TreeSet<>(removed));
        readAs = Map.copyOf(new TreeMap<>(readAs));
        limits = Map.copyOf(new TreeMap<>(limits));
        for (String n : readAs.keySet()) {
            if (removed.contains(n)) {
                throw new IllegalArgumentException(n + ": both removed and read as " + readAs.get(n));
            }
        }
    }

    /** True when the view is the directory as it is. */
    public boolean asIs() {
        return removed.isEmpty() && readAs.isEmpty() && limits.isEmpty();
    }

    /** True when the name of {@code p} is gone in this view. */
    public boolean removes(Path p) {
        return !removed.isEmpty() && removed.contains(p.getFileName().toString());
    }

    /** The file read under the name of {@code p}: {@code p} itself unless the view maps the name elsewhere. */
    public Path file(Path p) {
        if (readAs.isEmpty()) {
            return p;
        }
        String to = readAs.get(p.getFileName().toString());
        return to == null ? p : p.resolveSibling(to);
    }

    /** The length a stat of {@code p} returns in this view, given {@code onDisk}, the length of {@link #file}. */
    public long length(Path p, long onDisk) {
        if (limits.isEmpty()) {
            return onDisk;
        }
        Long limit = limits.get(p.getFileName().toString());
        return limit == null ? onDisk : Math.min(onDisk, limit);
    }

    /** Every name the view changes (removed, read as another file, or cut), sorted. */
    public Set<String> changedNames() {
        Set<String> out = new TreeSet<>(removed);
        out.addAll(readAs.keySet());
        out.addAll(limits.keySet());
        return out;
    }
}
