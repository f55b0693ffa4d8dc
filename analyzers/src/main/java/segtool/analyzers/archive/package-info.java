/**
 * Crash-dump archives: a partition or a whole data directory from a failed node, packed into one file and opened
 * again as a directory by every read-only command.
 *
 * <ul>
 *   <li>{@link segtool.analyzers.archive.DumpWriter#pack} writes {@code .tar.lz4} (or {@code .tar}) with a
 *       {@link segtool.analyzers.archive.Manifest} of sizes and XXH3-64s as its first entry.</li>
 *   <li>{@link segtool.analyzers.archive.DumpReader#open} extracts {@code .tar}, {@code .tar.lz4},
 *       {@code .tar.gz}/{@code .tgz} or a bare {@code .lz4} into a private temp directory under
 *       {@link segtool.analyzers.archive.Limits}, refusing hostile input with a
 *       {@link segtool.analyzers.archive.DumpException}, and returns an
 *       {@link segtool.analyzers.archive.OpenedDump} whose {@code root()} stands in for the directory.</li>
 * </ul>
 *
 * The only writes are the archive (pack) and the private extraction directory (open); neither touches the data.
 */
package segtool.analyzers.archive;
