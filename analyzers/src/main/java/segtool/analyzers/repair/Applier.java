package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import segtool.analyzers.archive.FileRange;
import segtool.analyzers.archive.FileXxh3;
import segtool.analyzers.inputs.WalLinks;
import segtool.formats.naming.SegmentFiles;

/**
 * The only code in segtool that changes files. It applies a {@link RepairPlan} the way the server's pass C would,
 * after copying every byte the plan removes into a quarantine directory, and it can put those bytes back.
 *
 * <p>Order for {@link #apply}: create the quarantine directory; copy each removed range into {@code bytes/}, force
 * it, and check its hash against the source; write the new index contents into {@code new/}; force the directories;
 * write {@code manifest.json} atomically (the commit point). Only then run the operations, strictly in plan order,
 * appending a forced {@code done} line to the journal after each. Every operation first checks, by length and hash,
 * that the bytes it is about to remove are the ones copied aside, and skips what an interrupted run already did, so
 * {@link #resume} after a crash at any point finishes the same plan with the same result.
 *
 * <p>Every write is forced before it is relied on, renames are atomic ({@code rename(2)}) and every directory whose
 * entries change is forced afterwards. {@link StepHook} sees each mutation before it happens.
 */
public final class Applier {
    private static final String RESTORE_SUFFIX = ".segtool-restore.staging";

    private final StepHook hook;
    private final String version;
    private final Clock clock;
    private int steps;
    /** The time of this applier's last quarantine: the next one is named at least a millisecond later. */
    private Instant lastQuarantine = Instant.EPOCH;

    public Applier(StepHook hook, String version) {
        this(hook, version, Clock.systemUTC());
    }

    public Applier(StepHook hook, String version, Clock clock) {
        this.hook = hook;
        this.version = version;
        this.clock = clock;
    }

    /** Mutations performed (or attempted) so far. */
    public int steps() {
        return steps;
    }

    // ---- apply -------------------------------------------------------------------------------------------------

    /** A check run immediately before the commit point (the in-use check, repeated); throwing stops the apply. */
    @FunctionalInterface
    public interface Gate {
        Gate OPEN = () -> { };

        void check() throws IOException;
    }

    /** Slack kept free beyond the copies themselves: the manifest, journal and directory entries. */
    static final long SPACE_SLACK = 1L << 20;

    /** Quarantines what {@code plan} removes, commits the manifest, then runs it. Returns the quarantine directory. */
    public Quarantine apply(RepairPlan plan) throws IOException {
        return apply(plan, Gate.OPEN);
    }

    /**
     * As {@link #apply(RepairPlan)}, with {@code gate} checked just before the manifest is committed (after the
     * copies, so a server started while they were made is seen). An I/O error before the commit point, or a closed
     * gate, removes the partial preparation: nothing in the partition was changed for it.
     */
    public Quarantine apply(RepairPlan plan, Gate gate) throws IOException {
        Path dir = plan.directory().toAbsolutePath().normalize();
        requireSpace(dir, plan);
        Instant now = clock.instant();
        // several quarantines in one run (accept-loss cuts) would otherwise often share a millisecond, and a
        // taken name costs another mkdir
        if (!now.isAfter(lastQuarantine.plusMillis(1).minusNanos(1))) {
            now = lastQuarantine.plusMillis(1);
        }
        lastQuarantine = now;
        Path q = null;
        // one step however many names are tried: a name is taken when two quarantines share a millisecond, which
        // depends on timing, and the steps of a plan must not
        step("mkdir " + Quarantine.directoryFor(dir, now, 0));
        for (int attempt = 0; q == null; attempt++) {
            Path candidate = Quarantine.directoryFor(dir, now, attempt);
            try {
                Files.createDirectory(candidate);
                q = candidate;
            } catch (FileAlreadyExistsException taken) {
                // also a symlink planted under the name: never followed, the next name is tried
                if (attempt > 100) {
                    throw taken;
                }
            }
        }
        String time = now.toString();
        List<QuarantineEntry> entries = new ArrayList<>();
        try {
            forceDirectory(q.getParent());
            step("mkdir " + q.resolve(Quarantine.BYTES));
            Files.createDirectory(q.resolve(Quarantine.BYTES));
            step("mkdir " + q.resolve(Planner.NEW_CONTENTS));
            Files.createDirectory(q.resolve(Planner.NEW_CONTENTS));
            for (RepairPlan.Leaving l : plan.leaving()) {
                int id = entries.size() + 1;
                String copy = Quarantine.BYTES + "/" + String.format("%04d", id) + "-" + l.file() + "@" + l.offset();
                Path source = dir.resolve(l.file());
                long hash = copyRange(source, l.offset(), l.length(), q.resolve(copy));
                entries.add(new QuarantineEntry(id, l.op(), l.file(), l.offset(), l.length(), l.originalLength(),
                        Hashing.hex(hash), copy, l.reason(), time, version));
            }
            for (Map.Entry<String, byte[]> c : plan.contents().entrySet()) {
                writeFile(q.resolve(c.getKey()), c.getValue());
            }
            for (Map.Entry<String, List<FileRange>> c : plan.assembled().entrySet()) {
                assemble(q.resolve(c.getKey()), c.getValue());
            }
            forceDirectory(q.resolve(Quarantine.BYTES));
            forceDirectory(q.resolve(Planner.NEW_CONTENTS));
            forceDirectory(q);
            gate.check();
        } catch (IOException e) {
            try {
                discard(q);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        Manifest manifest = new Manifest(Manifest.SCHEMA, version, plan.command(), dir.toString(),
                plan.partition().partitionId(), plan.durable(), time, Manifest.APPLYING, null, null, plan.ops(),
                entries);
        writeAtomically(q.resolve(Quarantine.MANIFEST), manifest.toBytes());
        Quarantine opened = Quarantine.open(q);
        run(opened);
        return opened;
    }

    /**
     * Refuses, before anything is written, when the file system holding the quarantine has less usable space than
     * the copies need. A sparse file's holes are copied at full length, so its length is what counts.
     */
    private static void requireSpace(Path dir, RepairPlan plan) throws IOException {
        long need = plan.quarantineBytes() + SPACE_SLACK + plan.newContentBytes();
        Path parent = dir.getParent();
        long usable = Files.getFileStore(parent).getUsableSpace();
        if (need > usable) {
            throw new IOException(parent + ": not enough free space for the quarantine: it needs " + need
                    + " bytes (" + plan.quarantineBytes() + " to copy), the file system has " + usable
                    + " usable; nothing changed");
        }
    }

    /** Finishes an unfinished plan: checks every copy, then runs the operations the journal does not list. */
    public void resume(Quarantine q) throws IOException {
        if (!q.unfinished()) {
            return;
        }
        verifyCopies(q);
        run(q);
    }

    private void run(Quarantine q) throws IOException {
        Path dir = q.partition();
        for (RepairOp op : q.manifest().operations()) {
            if (q.isDone(op.seq())) {
                continue;
            }
            execute(q, dir, op);
            journal(q, op);
        }
        writeAtomically(q.directory().resolve(Quarantine.MANIFEST),
                q.manifest().withState(Manifest.COMPLETE, clock.instant().toString(), null).toBytes());
    }

    /** Checks that every copied range and every new content is intact before relying on them. */
    public static void verifyCopies(Quarantine q) throws IOException {
        for (QuarantineEntry e : q.manifest().entries()) {
            verifyCopy(q, e);
        }
        for (RepairOp op : q.manifest().operations()) {
            String content = op instanceof RepairOp.StageIndex ? ((RepairOp.StageIndex) op).content()
                    : op instanceof RepairOp.InstallIndex ? ((RepairOp.InstallIndex) op).content() : null;
            if (content != null) {
                String hash = op instanceof RepairOp.StageIndex ? ((RepairOp.StageIndex) op).xxh3()
                        : ((RepairOp.InstallIndex) op).xxh3();
                long length = op instanceof RepairOp.StageIndex ? ((RepairOp.StageIndex) op).length()
                        : ((RepairOp.InstallIndex) op).length();
                Path file = q.contentFile(content);
                String wrong = unlike(file, length, Hashing.parse(hash), hash);
                if (wrong != null) {
                    throw new IOException(q.directory().resolve(content) + ": the new content of operation "
                            + op.seq() + ", bytes [0, " + length + "), " + wrong
                            + "; segtool refuses this quarantine and changed nothing");
                }
            }
        }
    }

    /** Every file and directory {@code op} touches is a regular file (a directory for a fence) or absent. */
    private static void confined(Path dir, RepairOp op) throws IOException {
        for (String name : Quarantine.partitionFiles(op)) {
            Confinement.regularOrAbsent(dir.resolve(name));
        }
        if (op instanceof RepairOp.Fence f) {
            Path fence = dir.resolveSibling(f.directory());
            Confinement.directoryOrAbsent(fence);
            Confinement.regularOrAbsent(fence.resolve(f.file()));
            Confinement.regularOrAbsent(fence.resolve(f.index()));
        }
    }

    private void execute(Quarantine q, Path dir, RepairOp op) throws IOException {
        confined(dir, op);
        if (op instanceof RepairOp.Delete) {
            delete(q, dir, (RepairOp.Delete) op);
        } else if (op instanceof RepairOp.StageIndex) {
            RepairOp.StageIndex s = (RepairOp.StageIndex) op;
            copyFile(q.contentFile(s.content()), dir.resolve(s.file()));
        } else if (op instanceof RepairOp.Fence) {
            fence(q, dir, (RepairOp.Fence) op);
        } else if (op instanceof RepairOp.TruncateLog) {
            RepairOp.TruncateLog t = (RepairOp.TruncateLog) op;
            truncate(q, dir, t.seq(), t.file(), t.from(), t.to());
        } else if (op instanceof RepairOp.InstallIndex) {
            install(q, dir, (RepairOp.InstallIndex) op);
        } else if (op instanceof RepairOp.TruncateIndex) {
            RepairOp.TruncateIndex t = (RepairOp.TruncateIndex) op;
            truncate(q, dir, t.seq(), t.file(), t.from(), t.to());
        } else {
            throw new IllegalStateException("unknown operation " + op);
        }
    }

    private void delete(Quarantine q, Path dir, RepairOp.Delete d) throws IOException {
        Path p = dir.resolve(d.file());
        if (!exists(p)) {
            forceDirectory(dir);
            return;
        }
        requireCopied(q, d.seq(), p, d.file(), d.length());
        step("delete " + p);
        Files.delete(p);
        forceDirectory(dir);
    }

    /** RECOVERY 6.2 Truncate: never extends; already at the target length counts as done. */
    private void truncate(Quarantine q, Path dir, int seq, String file, long from, long to) throws IOException {
        Path p = dir.resolve(file);
        long now = size(p);
        if (now == to) {
            if (exists(p)) {
                force(p);
            }
            return;
        }
        if (now != from) {
            throw conflict(p, "is " + now + " bytes; the plan truncates it from " + from + " to " + to);
        }
        requireCopied(q, seq, p, file, from);
        String linked = WalLinks.inPlaceTruncation(p);
        if (linked != null) {
            throw conflict(p, "at the truncation: " + linked.substring(linked.indexOf(" has ") + 1));
        }
        step("truncate " + p + " to " + to);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate(to);
            step("force " + p);
            ch.force(true);
        }
    }

    /** RECOVERY 6.1 step 3: the staged index renamed over the old one, then the directory forced. */
    private void install(Quarantine q, Path dir, RepairOp.InstallIndex i) throws IOException {
        Path p = dir.resolve(i.file());
        Path staging = dir.resolve(i.staging());
        boolean isNew = matches(p, i.length(), i.xxh3());
        boolean isOriginal = i.existed() ? exists(p) && copied(q, i.seq(), p, i.file(), i.from()) : !exists(p);
        if (!isNew && !isOriginal) {
            throw conflict(p, "is neither the index segtool quarantined nor the one it installs");
        }
        if (!exists(staging) && isNew) {
            forceDirectory(dir);
            return;
        }
        if (!matches(staging, i.length(), i.xxh3())) {
            copyFile(q.contentFile(i.content()), staging);
        }
        if (isOriginal && i.existed()) {
            requireCopies(q, i.seq(), i.file());
        }
        rename(staging, p);
        forceDirectory(dir);
    }

    /**
     * RECOVERY 6.2 Fence: the segment's files moved into {@code <p>.fenced.<n>} (log, then index), empty files
     * seeded (index first), then the fence directory, the partition directory and its parent forced.
     */
    private void fence(Quarantine q, Path dir, RepairOp.Fence f) throws IOException {
        Path fenceDir = dir.resolveSibling(f.directory());
        if (!Files.isDirectory(fenceDir, LinkOption.NOFOLLOW_LINKS)) {
            step("mkdir " + fenceDir);
            Files.createDirectory(fenceDir);
            forceDirectory(fenceDir.getParent());
        } else {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(fenceDir)) {
                for (Path p : s) {
                    String n = p.getFileName().toString();
                    if (!n.equals(f.file()) && !n.equals(f.index())) {
                        throw conflict(fenceDir, "exists and holds " + n + ", which segtool did not put there");
                    }
                }
            }
        }
        Path log = dir.resolve(f.file());
        String linked = f.logExisted() && exists(log) ? WalLinks.fenceRefusal(log) : null;
        if (linked != null) {
            throw conflict(log, "at the fence: " + linked.substring(linked.indexOf(" has ") + 1));
        }
        moveIntoFence(q, dir, fenceDir, f.seq(), f.file(), f.logExisted(), f.logBytes());
        moveIntoFence(q, dir, fenceDir, f.seq(), f.index(), f.indexExisted(), f.indexBytes());
        seedEmpty(dir.resolve(f.index()));
        seedEmpty(dir.resolve(f.file()));
        forceDirectory(fenceDir);
        forceDirectory(dir);
        forceDirectory(dir.getParent());
    }

    private void moveIntoFence(Quarantine q, Path dir, Path fenceDir, int seq, String name, boolean existed,
                               long bytes) throws IOException {
        if (!existed) {
            return;
        }
        Path target = fenceDir.resolve(name);
        if (exists(target)) {
            if (!copied(q, seq, target, name, bytes)) {
                throw conflict(target, "does not hold the bytes segtool fenced");
            }
            return;
        }
        Path source = dir.resolve(name);
        requireCopied(q, seq, source, name, bytes);
        rename(source, target);
    }

    private void seedEmpty(Path p) throws IOException {
        if (exists(p)) {
            if (Files.size(p) != 0) {
                throw conflict(p, "should be the empty file seeded after fencing but holds " + Files.size(p)
                        + " bytes");
            }
            force(p);
            return;
        }
        writeFile(p, new byte[0]);
    }

    private void journal(Quarantine q, RepairOp op) throws IOException {
        Path j = q.directory().resolve(Quarantine.JOURNAL);
        boolean created = !exists(j);
        step("journal done " + op.seq());
        try (FileChannel ch = FileChannel.open(j, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer line = ByteBuffer.wrap(("done " + op.seq() + " " + op.kind() + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            while (line.hasRemaining()) {
                ch.write(line);
            }
            step("force " + j);
            ch.force(true);
        }
        if (created) {
            forceDirectory(q.directory());
        }
    }

    /**
     * Removes a quarantine directory whose manifest was never committed: an apply stopped while copying, before it
     * changed anything, so its copies duplicate bytes that are still in place.
     */
    public void discard(Path preparation) throws IOException {
        if (Quarantine.hasManifest(preparation)) {
            throw new IOException(preparation + ": has a committed manifest; segtool never deletes one");
        }
        List<Path> files = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        try (var walk = Files.walk(preparation)) {
            walk.forEach(p -> (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? dirs : files).add(p));
        }
        for (Path f : files) {
            String rel = preparation.relativize(f).toString();
            boolean ours = rel.startsWith(Quarantine.BYTES + "/") || rel.startsWith(Planner.NEW_CONTENTS + "/")
                    || rel.equals(Quarantine.MANIFEST + ".tmp");
            if (!ours) {
                throw new IOException(f + ": not a file segtool puts in a quarantine directory; leaving "
                        + preparation + " alone");
            }
        }
        for (Path f : files) {
            step("delete " + f);
            Files.delete(f);
        }
        dirs.sort(java.util.Comparator.reverseOrder());
        for (Path d : dirs) {
            step("rmdir " + d);
            Files.delete(d);
        }
        forceDirectory(preparation.getParent());
    }

    // ---- restore -----------------------------------------------------------------------------------------------

    /** What {@link #restore} did or would do. {@code conflicts} non-empty means it changed nothing. */
    public record RestoreResult(List<String> actions, List<String> conflicts, boolean applied) {
    }

    /**
     * Puts back every byte the quarantine holds: undoes, newest first, every operation of the plan whose file is not
     * in its original state. The journal is not trusted for this (it may be lost, torn or out of date): each file's
     * state decides. Checks first, without changing anything, that each file is original or in a state the repair
     * (or an earlier, interrupted restore) can have left; any other state is a conflict and nothing is changed.
     * Nothing is claimed before the partition is verified against the manifest's original lengths and hashes: a dry
     * run with nothing to do verifies it now, an apply verifies it after the last step. Each undo step checks the
     * file again, so running restore again after a crash or a full disk finishes the job.
     */
    public RestoreResult restore(Quarantine q, boolean apply) throws IOException {
        verifyCopies(q);
        Path dir = q.partition();
        List<String> actions = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        List<RepairOp> ops = new ArrayList<>(q.manifest().operations());
        java.util.Collections.reverse(ops);
        leftovers(dir, false, actions);
        for (RepairOp op : ops) {
            undo(q, dir, op, false, actions, conflicts);
        }
        if (conflicts.isEmpty() && actions.isEmpty()) {
            conflicts.addAll(notOriginal(q, dir));
        }
        if (!conflicts.isEmpty() || !apply) {
            return new RestoreResult(actions, conflicts, false);
        }
        List<String> done = new ArrayList<>();
        leftovers(dir, true, done);
        for (RepairOp op : ops) {
            undo(q, dir, op, true, done, conflicts);
            if (!conflicts.isEmpty()) {
                throw new IOException("restore stopped: " + conflicts.get(0));
            }
        }
        List<String> wrong = notOriginal(q, dir);
        if (!wrong.isEmpty()) {
            throw new IOException("restore did not bring back the original bytes: " + wrong.get(0)
                    + (wrong.size() > 1 ? " (and " + (wrong.size() - 1) + " more)" : ""));
        }
        writeAtomically(q.directory().resolve(Quarantine.MANIFEST), q.manifest().withState(Manifest.RESTORED,
                q.manifest().completed(), clock.instant().toString()).toBytes());
        return new RestoreResult(done, conflicts, true);
    }

    /**
     * Every file the manifest names, checked against what it was before the repair: the first operation that touches
     * a name says what that was (absent, or {@code n} bytes whose quarantined ranges hash as recorded). Returns one
     * line per file that differs; empty when the partition holds the original bytes.
     */
    private static List<String> notOriginal(Quarantine q, Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (RepairOp op : q.manifest().operations()) {
            for (String name : Quarantine.partitionFiles(op)) {
                if (!seen.add(name)) {
                    continue;
                }
                long length = originalLength(op, name);
                Path p = dir.resolve(name);
                if (length < 0) {
                    if (exists(p)) {
                        out.add(p + ": did not exist before the repair, but does now");
                    }
                } else if (!exists(p)) {
                    out.add(p + ": is missing; it was " + length + " bytes before the repair");
                } else if (Files.size(p) != length) {
                    out.add(p + ": is " + Files.size(p) + " bytes; it was " + length + " before the repair");
                } else if (!copied(q, op.seq(), p, name, length)) {
                    out.add(p + ": does not hash as the bytes quarantined from it");
                }
            }
        }
        return out;
    }

    /** The length {@code name} had before {@code op}, the first operation that touches it; -1 when it was absent. */
    private static long originalLength(RepairOp op, String name) {
        if (op instanceof RepairOp.Delete d) {
            return d.length();
        }
        if (op instanceof RepairOp.Fence f) {
            return name.equals(f.file()) ? (f.logExisted() ? f.logBytes() : -1) : (f.indexExisted() ? f.indexBytes()
                    : -1);
        }
        if (op instanceof RepairOp.TruncateLog t) {
            return t.from();
        }
        if (op instanceof RepairOp.TruncateIndex t) {
            return t.from();
        }
        if (op instanceof RepairOp.InstallIndex i) {
            return name.equals(i.file()) && i.existed() ? i.from() : -1;
        }
        return -1;
    }

    private void leftovers(Path dir, boolean apply, List<String> actions) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.endingIn(RESTORE_SUFFIX))) {
            s.forEach(found::add);
        }
        for (Path p : found) {
            actions.add("delete " + p.getFileName() + " (left by an interrupted restore)");
            if (apply) {
                step("delete " + p);
                Files.deleteIfExists(p);
                forceDirectory(dir);
            }
        }
    }

    private void undo(Quarantine q, Path dir, RepairOp op, boolean apply, List<String> actions,
                      List<String> conflicts) throws IOException {
        confined(dir, op);
        if (op instanceof RepairOp.TruncateLog) {
            RepairOp.TruncateLog t = (RepairOp.TruncateLog) op;
            untruncate(q, dir, t.seq(), t.file(), t.from(), t.to(), apply, actions, conflicts);
        } else if (op instanceof RepairOp.TruncateIndex) {
            RepairOp.TruncateIndex t = (RepairOp.TruncateIndex) op;
            untruncate(q, dir, t.seq(), t.file(), t.from(), t.to(), apply, actions, conflicts);
        } else if (op instanceof RepairOp.InstallIndex) {
            RepairOp.InstallIndex i = (RepairOp.InstallIndex) op;
            Path p = dir.resolve(i.file());
            boolean isOriginal = i.existed() ? exists(p) && copied(q, i.seq(), p, i.file(), i.from()) : !exists(p);
            if (isOriginal) {
                return;
            }
            if (!matches(p, i.length(), i.xxh3())) {
                conflicts.add(p + ": is neither the original index nor the one segtool installed (changed since?)");
                return;
            }
            if (linked(p, i.existed() ? "rename a new file over it" : "delete it", conflicts)) {
                return;
            }
            if (i.existed()) {
                actions.add("put back " + i.file() + " (" + i.from() + " bytes) in place of the rebuilt index");
                if (apply) {
                    reassemble(q, dir, i.seq(), i.file(), i.from());
                }
            } else {
                actions.add("delete " + i.file() + " (there was no index before the repair)");
                if (apply) {
                    step("delete " + p);
                    Files.delete(p);
                    forceDirectory(dir);
                }
            }
        } else if (op instanceof RepairOp.StageIndex) {
            RepairOp.StageIndex s = (RepairOp.StageIndex) op;
            Path p = dir.resolve(s.file());
            if (exists(p) && !isOriginalOf(q, s.file(), p)) {
                if (!stagedBySegtool(q, s, p)) {
                    conflicts.add(p + ": is neither the index segtool staged nor the file it replaced (changed "
                            + "since?)");
                    return;
                }
                if (linked(p, "delete it", conflicts)) {
                    return;
                }
                actions.add("delete " + s.file() + " (written by segtool)");
                if (apply) {
                    step("delete " + p);
                    Files.delete(p);
                    forceDirectory(dir);
                }
            }
        } else if (op instanceof RepairOp.Delete) {
            RepairOp.Delete d = (RepairOp.Delete) op;
            Path p = dir.resolve(d.file());
            if (exists(p) && copied(q, d.seq(), p, d.file(), d.length())) {
                return;
            }
            if (exists(p) && !(apply || removedByLaterUndo(q, d))) {
                conflicts.add(p + ": exists but is not the file segtool deleted");
                return;
            }
            actions.add("recreate " + d.file() + " (" + d.length() + " bytes)");
            if (apply) {
                if (exists(p)) {
                    throw new IOException(p + ": exists but is not the file segtool deleted");
                }
                reassemble(q, dir, d.seq(), d.file(), d.length());
            }
        } else if (op instanceof RepairOp.Fence) {
            unfence(q, dir, (RepairOp.Fence) op, apply, actions, conflicts);
        }
    }

    /**
     * True, with the one-line refusal added to {@code conflicts}, when {@code p} exists with more than one link:
     * restore changes no such file, in place or by a rename over it ({@link WalLinks#restoreRefusal}).
     */
    private static boolean linked(Path p, String what, List<String> conflicts) throws IOException {
        // the WAL retains segment logs only (METADATA 6.7): an index with a second name is restored as any other
        boolean log = p.getFileName().toString().endsWith(SegmentFiles.LOG);
        String refusal = log && exists(p) ? WalLinks.restoreRefusal(p, what) : null;
        if (refusal != null) {
            conflicts.add(refusal);
        }
        return refusal != null;
    }

    /** A staging file segtool wrote over a name the sweep had deleted: removed before the original is recreated. */
    private static boolean removedByLaterUndo(Quarantine q, RepairOp.Delete d) throws IOException {
        Path p = q.partition().resolve(d.file());
        for (RepairOp op : q.manifest().operations()) {
            if (op instanceof RepairOp.StageIndex s && op.file().equals(d.file()) && op.seq() > d.seq()
                    && stagedBySegtool(q, s, p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code p} is what {@code s} wrote: the staged content, or anything at all while the journal names {@code s}
     * as the operation a crash interrupted (a torn write). Without a journal a torn staging file is a conflict.
     */
    private static boolean stagedBySegtool(Quarantine q, RepairOp.StageIndex s, Path p) throws IOException {
        return matches(p, s.length(), s.xxh3()) || (q.touched(s.seq()) && !q.isDone(s.seq()));
    }

    private boolean isOriginalOf(Quarantine q, String file, Path p) throws IOException {
        for (RepairOp op : q.manifest().operations()) {
            if (op instanceof RepairOp.Delete && op.file().equals(file)) {
                return copied(q, op.seq(), p, file, ((RepairOp.Delete) op).length());
            }
        }
        return false;
    }

    private void untruncate(Quarantine q, Path dir, int seq, String file, long from, long to, boolean apply,
                            List<String> actions, List<String> conflicts) throws IOException {
        Path p = dir.resolve(file);
        long now = size(p);
        if (now == from && copied(q, seq, p, file, from)) {
            return;
        }
        if (now < to || now >= from || !prefixMatches(q, seq, file, p, to, now)) {
            conflicts.add(p + ": is " + now + " bytes; segtool truncated it from " + from + " to " + to
                    + " and can only append the quarantined tail to what it left (changed since?)");
            return;
        }
        if (linked(p, "append " + (from - now) + " bytes to it in place", conflicts)) {
            return;
        }
        actions.add("append " + (from - now) + " bytes to " + file + " (back to " + from + ")");
        if (!apply) {
            return;
        }
        try (FileChannel out = FileChannel.open(p, StandardOpenOption.WRITE)) {
            for (QuarantineEntry e : q.entriesOf(seq, file)) {
                if (e.end() <= now) {
                    continue;
                }
                long skip = Math.max(0, now - e.offset());
                step("write " + p + " at " + (e.offset() + skip));
                try (FileChannel in = FileChannel.open(q.copy(e), StandardOpenOption.READ)) {
                    transfer(in, skip, e.length() - skip, out, e.offset() + skip);
                }
            }
            step("force " + p);
            out.force(true);
        }
        if (!copied(q, seq, p, file, from)) {
            throw new IOException(p + ": does not hash as quarantined after putting the tail back");
        }
    }

    /** True when {@code [to, now)} of {@code p} equals the start of the quarantined tail (an interrupted append). */
    private static boolean prefixMatches(Quarantine q, int seq, String file, Path p, long to, long now)
            throws IOException {
        for (QuarantineEntry e : q.entriesOf(seq, file)) {
            long n = Math.min(e.end(), now) - e.offset();
            if (n <= 0) {
                break;
            }
            if (Hashing.range(p, e.offset(), n) != Hashing.range(q.copy(e), 0, n)) {
                return false;
            }
        }
        return true;
    }

    private void unfence(Quarantine q, Path dir, RepairOp.Fence f, boolean apply, List<String> actions,
                         List<String> conflicts) throws IOException {
        Path fenceDir = dir.resolveSibling(f.directory());
        String[][] files = {{f.file(), String.valueOf(f.logExisted()), String.valueOf(f.logBytes())},
            {f.index(), String.valueOf(f.indexExisted()), String.valueOf(f.indexBytes())}};
        for (String[] x : files) {
            String name = x[0];
            boolean existed = Boolean.parseBoolean(x[1]);
            long bytes = Long.parseLong(x[2]);
            Path p = dir.resolve(name);
            if (existed) {
                if (exists(p) && copied(q, f.seq(), p, name, bytes)) {
                    continue;
                }
                if (exists(p) && Files.size(p) != 0) {
                    conflicts.add(p + ": holds " + Files.size(p) + " bytes that are neither the fenced original nor"
                            + " the empty file seeded in its place (changed since?)");
                    continue;
                }
                if (linked(p, "rename a new file over it", conflicts)) {
                    continue;
                }
                actions.add("put back " + name + " (" + bytes + " bytes) from the quarantine");
                if (apply) {
                    reassemble(q, dir, f.seq(), name, bytes);
                }
            } else if (exists(p)) {
                if (Files.size(p) != 0) {
                    conflicts.add(p + ": holds " + Files.size(p) + " bytes; segtool seeded it empty");
                    continue;
                }
                if (linked(p, "delete it", conflicts)) {
                    continue;
                }
                actions.add("delete the seeded empty " + name + " (it did not exist before)");
                if (apply) {
                    step("delete " + p);
                    Files.delete(p);
                    forceDirectory(dir);
                }
            }
        }
        if (!Files.isDirectory(fenceDir)) {
            return;
        }
        for (String[] x : files) {
            Path fenced = fenceDir.resolve(x[0]);
            if (Boolean.parseBoolean(x[1]) && exists(fenced)
                    && copied(q, f.seq(), fenced, x[0], Long.parseLong(x[2]))) {
                actions.add("delete " + f.directory() + "/" + x[0] + " (the fenced copy, now back in place)");
                if (apply) {
                    step("delete " + fenced);
                    Files.delete(fenced);
                }
            }
        }
        if (apply) {
            boolean empty;
            try (DirectoryStream<Path> s = Files.newDirectoryStream(fenceDir)) {
                empty = !s.iterator().hasNext();
            }
            if (empty) {
                step("rmdir " + fenceDir);
                Files.delete(fenceDir);
            } else {
                forceDirectory(fenceDir);
            }
            forceDirectory(fenceDir.getParent());
        } else {
            actions.add("remove " + f.directory() + " if nothing else is in it");
        }
    }

    /** Rebuilds {@code file} whole from its quarantined ranges: a temporary file, forced, checked, renamed. */
    private void reassemble(Quarantine q, Path dir, int seq, String file, long length) throws IOException {
        Path target = dir.resolve(file);
        Path tmp = dir.resolve(file + RESTORE_SUFFIX);
        step("write " + tmp);
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long at = 0;
            for (QuarantineEntry e : q.entriesOf(seq, file)) {
                if (e.offset() != at) {
                    throw new IOException(q.directory() + ": the copies of " + file + " do not cover it from 0");
                }
                try (FileChannel in = FileChannel.open(q.copy(e), StandardOpenOption.READ)) {
                    transfer(in, 0, e.length(), out, e.offset());
                }
                at = e.end();
            }
            if (at != length) {
                throw new IOException(q.directory() + ": the copies of " + file + " cover " + at + " of " + length
                        + " bytes");
            }
            step("force " + tmp);
            out.force(true);
        }
        if (!copied(q, seq, tmp, file, length)) {
            throw new IOException(tmp + ": does not hash as quarantined");
        }
        rename(tmp, target);
        forceDirectory(dir);
    }

    // ---- checks ------------------------------------------------------------------------------------------------

    /** True iff {@code p} is {@code length} bytes and each quarantined range of {@code file} hashes as recorded. */
    private static boolean copied(Quarantine q, int seq, Path p, String file, long length) throws IOException {
        if (size(p) != length) {
            return false;
        }
        for (QuarantineEntry e : q.entriesOf(seq, file)) {
            if (Hashing.range(p, e.offset(), e.length()) != Hashing.parse(e.xxh3())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Before bytes of {@code p} are removed: {@code p} still holds what was copied, and every copy of them exists in
     * the quarantine as a regular file and hashes as recorded.
     */
    private static void requireCopied(Quarantine q, int seq, Path p, String file, long length) throws IOException {
        if (!copied(q, seq, p, file, length)) {
            throw conflict(p, "no longer holds the bytes copied into " + q.directory().getFileName()
                    + "; it changed after the plan was made");
        }
        requireCopies(q, seq, file);
    }

    private static void requireCopies(Quarantine q, int seq, String file) throws IOException {
        for (QuarantineEntry e : q.entriesOf(seq, file)) {
            verifyCopy(q, e);
        }
    }

    private static void verifyCopy(Quarantine q, QuarantineEntry e) throws IOException {
        Path copy = q.copy(e);
        String wrong = unlike(copy, e.length(), Hashing.parse(e.xxh3()), e.xxh3());
        if (wrong != null) {
            throw new IOException(copy + ": the quarantined copy of " + e.file() + " bytes [" + e.offset() + ", "
                    + e.end() + ") " + wrong + "; stopping without changing " + e.file());
        }
    }

    /**
     * Null when {@code file} is a regular file of {@code length} bytes hashing to {@code xxh3}; else what is wrong,
     * in words that follow its name: "is missing", "is a directory", "holds 60 of its 100 bytes (cut short)",
     * "holds 120 bytes, not 100", "does not hash to 0x... (its bytes hash to 0x...)".
     */
    private static String unlike(Path file, long length, long xxh3, String recorded) throws IOException {
        java.nio.file.attribute.BasicFileAttributes a = Confinement.stat(file);
        if (a == null) {
            return "is missing";
        }
        if (!a.isRegularFile()) {
            return "is " + Confinement.kind(a) + ", not a regular file";
        }
        if (a.size() < length) {
            return "holds " + a.size() + " of its " + length + " bytes (cut short)";
        }
        if (a.size() != length) {
            return "holds " + a.size() + " bytes, not " + length;
        }
        long actual = Hashing.range(file, 0, length);
        return actual == xxh3 ? null : "does not hash to " + recorded + " (its bytes hash to " + Hashing.hex(actual)
                + ")";
    }

    private static boolean matches(Path p, long length, String xxh3) throws IOException {
        return exists(p) && Files.size(p) == length && FileXxh3.hash(p) == Hashing.parse(xxh3);
    }

    private static IOException conflict(Path p, String what) {
        return new IOException(p + ": " + what + "; stopping (the quarantine holds everything removed so far)");
    }

    private static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    private static long size(Path p) throws IOException {
        return exists(p) ? Files.size(p) : 0;
    }

    // ---- primitives: every mutation passes through step() --------------------------------------------------------

    private void step(String action) throws IOException {
        hook.before(steps++, action);
    }

    /** Copies {@code [offset, offset + length)} of {@code source} into a new file, forces it, checks both hashes. */
    private long copyRange(Path source, long offset, long length, Path copy) throws IOException {
        step("write " + copy);
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(copy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            transfer(in, offset, length, out, 0);
            step("force " + copy);
            out.force(true);
            long expected = Hashing.range(in, source, offset, length);
            long actual = Hashing.range(copy, 0, length);
            if (expected != actual) {
                throw new IOException(copy + ": copy of " + source + " [" + offset + ", " + (offset + length)
                        + ") hashes " + Hashing.hex(actual) + ", source " + Hashing.hex(expected));
            }
            return expected;
        }
    }

    private static void transfer(FileChannel in, long from, long length, FileChannel out, long to)
            throws IOException {
        long done = 0;
        while (done < length) {
            long n = out.transferFrom(in.position(from + done), to + done, length - done);
            if (n <= 0) {
                throw new IOException("short copy: " + done + " of " + length + " bytes");
            }
            done += n;
        }
    }

    /** A new file holding {@code pieces} one after another, streamed through a bounded buffer, then forced. */
    private void assemble(Path p, List<FileRange> pieces) throws IOException {
        step("write " + p);
        try (FileChannel out = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long at = 0;
            for (FileRange r : pieces) {
                try (FileChannel in = FileChannel.open(r.file(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                    if (r.offset() + r.length() > in.size()) {
                        throw new IOException(r.file() + ": is " + in.size() + " bytes, the range [" + r.offset()
                                + ", " + (r.offset() + r.length()) + ") to copy runs past its end");
                    }
                    transfer(in, r.offset(), r.length(), out, at);
                }
                at += r.length();
            }
            step("force " + p);
            out.force(true);
        }
    }

    /** Create or truncate {@code to}, copy all of {@code from} into it through a bounded buffer, force. */
    private void copyFile(Path from, Path to) throws IOException {
        step("write " + to);
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.TRUNCATE_EXISTING)) {
            transfer(in, 0, in.size(), out, 0);
            step("force " + to);
            out.force(true);
        }
    }

    /** Create or truncate, write everything at offset 0, force. */
    private void writeFile(Path p, byte[] bytes) throws IOException {
        step("write " + p);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
            step("force " + p);
            ch.force(true);
        }
    }

    /** A temporary file beside {@code target}, forced, renamed over it, directory forced. */
    private void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        writeFile(tmp, bytes);
        rename(tmp, target);
        forceDirectory(target.getParent());
    }

    private void rename(Path from, Path to) throws IOException {
        step("rename " + from + " -> " + to);
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    }

    private void force(Path p) throws IOException {
        step("force " + p);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    private void forceDirectory(Path dir) throws IOException {
        step("force " + dir + "/");
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
