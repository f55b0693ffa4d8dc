package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.DirectoryView;
import segtool.formats.metadata.Frontier;
import segtool.formats.metadata.MetadataFormatException;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * The partition prepare WAL's open as far as segment recovery depends on it (METADATA 6.1-6.5, 6.7): the frontier's
 * winning slot, the checks that turn into the server's PrepareWal refusal, the checkpoint, and what the open does to
 * the directory before segment recovery runs.
 */
final class Wal {
    /**
     * The WAL's answer, or the refusal that replaces a verdict. {@code saysNone}: a frontier slot won and carries no
     * segment state, so the server itself recovers without a checkpoint (METADATA 6.5).
     */
    record Result(WalInputs inputs, PartitionInputs.Refusal refusal, String line, boolean saysNone) {
        Result(WalInputs inputs, PartitionInputs.Refusal refusal, String line) {
            this(inputs, refusal, line, false);
        }

        static Result refuse(PartitionInputs.Refusal r, String line) {
            return new Result(null, r, line);
        }
    }

    private Wal() {
    }

    static String dirName(long revision) {
        return "prepares-" + Long.toUnsignedString(revision);
    }

    static Result read(PartitionPath p, Long revision) throws IOException {
        Path dir = p.directory();
        if (revision == null) {
            List<Path> found = new ArrayList<>();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.startingWith("prepares-"))) {
                for (Path d : s) {
                    if (Files.isDirectory(d)) {
                        found.add(d);
                    }
                }
            }
            if (found.isEmpty()) {
                return new Result(new WalInputs(null, "no prepares-<created_revision>/ directory", List.of(),
                        List.of()), null, null);
            }
            if (found.size() > 1) {
                return Result.refuse(PartitionInputs.Refusal.UNDECIDED, dir + ": " + found.size()
                        + " prepares-* directories and no created_revision to choose between them");
            }
            String n = found.get(0).getFileName().toString().substring("prepares-".length());
            revision = n.chars().allMatch(Character::isDigit) && !n.isEmpty() && n.length() < 20
                    ? Long.parseUnsignedLong(n) : null;
            if (revision == null) {
                return Result.refuse(PartitionInputs.Refusal.UNDECIDED, found.get(0) + ": not prepares-<number>");
            }
        }
        String name = dirName(revision);
        Path wal = dir.resolve(name);
        if (!Files.isDirectory(wal)) {
            return new Result(new WalInputs(null, "no " + name + "/ directory", List.of(), List.of()), null, null);
        }
        Frontier.File f;
        try {
            f = Frontier.read(wal.resolve(Frontier.FILE));
        } catch (MetadataFormatException e) {
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + name + "/"
                    + Frontier.FILE + " @ " + e.position() + ": " + e.reason());
        }
        if (f == null) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(wal)) {
                for (Path e : s) {
                    String n = e.getFileName().toString();
                    boolean allowed = Files.isDirectory(e) || n.equals("frontier.tmp") || n.equals(Frontier.FILE)
                            || n.equals("prepares-0.wal") && Files.size(e) == 0;
                    if (!allowed) {
                        return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + name
                                + "/ has no frontier but holds " + n + " (METADATA 6.1: the WAL refuses to open)");
                    }
                }
            }
            return new Result(new WalInputs(null, name + "/ has no frontier", List.of(), List.of()), null, null);
        }
        for (Frontier.Slot s : f.slots()) {
            if (s.magic().startsWith("IGGYWAL") && !s.magic().equals(Frontier.MAGIC)) {
                if (s.magic().equals("IGGYWAL1") || s.magic().equals("IGGYWAL2")) {
                    return Result.refuse(PartitionInputs.Refusal.UNDECIDED, name + "/frontier slot " + s.index()
                            + ": magic " + s.magic() + " is the single-block layout of early builds (an older "
                            + "generation; current builds refuse to read it): not decoded");
                }
                return Result.refuse(PartitionInputs.Refusal.UNDECIDED, name + "/frontier slot " + s.index()
                        + ": unknown WAL format, magic " + s.magic() + (s.magic().equals("IGGYWAL4")
                        ? " (its layout is UNSETTLED, METADATA 8 U2)" : "") + ": not decoded");
            }
        }
        Frontier.Slot w = f.winner();
        if (w == null) {
            StringBuilder why = new StringBuilder();
            for (Frontier.Slot s : f.slots()) {
                why.append(why.length() == 0 ? "" : "; ").append("slot ").append(s.index()).append(": ")
                        .append(s.defect());
            }
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + name
                    + "/frontier: no slot verifies (" + why + ")");
        }
        List<String> notes = new ArrayList<>();
        for (Frontier.Slot s : f.slots()) {
            if (!s.verified()) {
                notes.add(name + "/frontier slot " + s.index() + " does not verify (" + s.defect() + "): the server "
                        + "also adopts verified WAL records past byte " + Long.toUnsignedString(w.length())
                        + " of prepares-" + Long.toUnsignedString(w.generation()) + ".wal; segtool does not read them");
            }
        }
        if (p.isCanonical()) {
            long group = Frontier.group(p.streamId(), p.topicId(), p.partitionId());
            if (w.group() != group) {
                return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, String.format("PrepareWal: "
                        + "%s/frontier slot %d: group 0x%x, this partition is 0x%x", name, w.index(), w.group(), group));
            }
        }
        if (w.incarnation() != revision) {
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + name
                    + "/frontier slot " + w.index() + ": incarnation " + Long.toUnsignedString(w.incarnation())
                    + ", created_revision is " + Long.toUnsignedString(revision));
        }
        // 6.3, length: the published bytes of prepares-<generation>.wal, which must be at least that long
        String data = "prepares-" + Long.toUnsignedString(w.generation()) + ".wal";
        Path dataFile = wal.resolve(data);
        boolean dataExists = Files.exists(dataFile, LinkOption.NOFOLLOW_LINKS);
        long dataSize = dataExists ? Files.size(dataFile) : 0;
        if (Long.compareUnsigned(dataSize, w.length()) < 0) {
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + name + "/" + data
                    + " holds " + dataSize + " bytes" + (dataExists ? "" : " (missing)") + ", fewer than the "
                    + Long.toUnsignedString(w.length()) + " that " + name + "/frontier slot " + w.index()
                    + " published (METADATA 6.3): the WAL does not open");
        }
        String source = name + "/frontier slot " + w.index() + ", sequence " + Long.toUnsignedString(w.sequence());
        if (w.segments() == null) {
            return new Result(new WalInputs(null, source + ": no segment state", List.of(), notes), null, null, true);
        }
        Frontier.SegmentState seg = w.segments();
        Frontier.Position cp = seg.checkpoint();
        Checkpoint checkpoint = new Checkpoint(cp.startOffset(), cp.length(), cp.nextOffset());
        return open(dir, wal, name, seg, checkpoint, source, notes);
    }

    /**
     * METADATA 6.7 steps 1-3: what the open does to the directory before segment recovery, as steps to show and as
     * the {@link DirectoryView} the checkpoint carries, so that segment recovery is judged on the directory the open
     * leaves (RECOVERY 9 step 0). Reads only; the refusals the open itself raises (PrepareWal) are kept.
     */
    private static Result open(Path dir, Path wal, String name, Frontier.SegmentState seg, Checkpoint checkpoint,
                               String source, List<String> notes) throws IOException {
        Frontier.Position tail = seg.tail();
        String publicName = SegmentFiles.stem(tail.startOffset()) + SegmentFiles.LOG;
        String tmpName = publicName + ".tmp";
        Path pub = dir.resolve(publicName);
        String retainedName = name + "/segment-" + Long.toUnsignedString(tail.generation()) + "-"
                + Long.toUnsignedString(tail.startOffset()) + ".log";
        Path retained = dir.resolve(retainedName);
        boolean pubExists = Files.exists(pub, LinkOption.NOFOLLOW_LINKS);
        boolean retainedExists = Files.exists(retained, LinkOption.NOFOLLOW_LINKS);
        List<WalOpenStep> steps = new ArrayList<>();
        Set<String> removed = new TreeSet<>();
        Map<String, String> readAs = new TreeMap<>();
        Map<String, Long> limits = new TreeMap<>();
        long published = tail.length();
        // step 1: the retained inode, linked from the public name when the WAL has no link of its own, created (empty)
        // when neither name exists
        boolean created = !retainedExists && !pubExists;
        if (created && published != 0) {
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: neither "
                    + retainedName + " nor " + publicName + " exists, so the open creates " + retainedName
                    + " (METADATA 6.7 step 1): 0 bytes, fewer than the " + Long.toUnsignedString(published)
                    + " the frontier published (lost durably published bytes)");
        }
        Path file = retainedExists || created ? retained : pub;
        String shown = retainedExists || created ? retainedName : publicName;
        if (created) {
            steps.add(new WalOpenStep(WalOpenStep.Action.CREATE_EMPTY, retainedName, null, null, 0L, "create "
                    + retainedName + " empty (neither it nor " + publicName + " exists; tail.length is 0)"));
        } else if (!retainedExists) {
            steps.add(new WalOpenStep(WalOpenStep.Action.LINK_RETAINED, retainedName, publicName, null, null,
                    "link " + retainedName + " to " + publicName + " (the WAL retains the public inode)"));
        }
        long size = created ? 0 : Files.size(file);
        if (Long.compareUnsigned(size, published) < 0) {
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + shown + " holds "
                    + size + " bytes, fewer than the " + Long.toUnsignedString(published)
                    + " the frontier published (lost durably published bytes)");
        }
        boolean cut = size > published;
        if (cut) {
            steps.add(new WalOpenStep(WalOpenStep.Action.TRUNCATE, shown, null, size, published, "truncate " + shown
                    + " from " + size + " to " + Long.toUnsignedString(published) + " bytes (tail.length)"));
        } else if (!created) {
            steps.add(new WalOpenStep(WalOpenStep.Action.KEEP, shown, null, size, size, shown + " holds the "
                    + Long.toUnsignedString(published) + " published bytes: kept"));
        }
        // step 2: the public name re-created from the retained inode, through <S>.log.tmp
        boolean relink = Long.compareUnsigned(published, seg.maxSize()) < 0
                || Long.compareUnsigned(tail.nextOffset(), checkpoint.nextOffset()) > 0 || pubExists;
        boolean publicIsRetained = false;
        boolean tmpRemoved = false;
        if (relink) {
            if (Files.exists(dir.resolve(tmpName), LinkOption.NOFOLLOW_LINKS)) {
                // shown, but not part of the view: the sweep ignores .tmp (R 3), so segment recovery reads the same
                tmpRemoved = true;
                steps.add(new WalOpenStep(WalOpenStep.Action.REMOVE_TMP, tmpName, null, null, null, "remove "
                        + tmpName + " (left by an earlier open; the re-link starts by removing it)"));
            }
            if (pubExists && Files.isSameFile(pub, file)) {
                steps.add(new WalOpenStep(WalOpenStep.Action.RELINK_SAME, publicName, shown, null, null, "re-link "
                        + publicName + " to the WAL's retained inode: already that inode, no change"));
            } else {
                boolean replace = pubExists;
                readAs.put(publicName, retainedName);
                if (created) {
                    limits.put(publicName, 0L);
                }
                if (replace) {
                    notes.add(publicName + " (another inode than the WAL's, " + Files.size(pub) + " bytes) is replaced "
                            + "at boot by the WAL's open (METADATA 6.7 step 2): its bytes are then gone from the "
                            + "directory; to keep them, copy " + publicName + " (a copy, not a hard link) to a place "
                            + "outside the data directory before the server starts");
                }
                steps.add(new WalOpenStep(replace ? WalOpenStep.Action.REPLACE : WalOpenStep.Action.CREATE, publicName,
                        retainedName, null, null, (replace ? "replace " + publicName + " (another inode, "
                        + Files.size(pub) + " bytes) by" : "create " + publicName + " from") + " the WAL's retained "
                        + "inode " + retainedName + " (through " + tmpName + ")"));
            }
            publicIsRetained = true;
        } else if (!pubExists) {
            steps.add(new WalOpenStep(WalOpenStep.Action.NOT_RELINKED, publicName, null, null, null, publicName
                    + " does not exist and the open does not create it (tail.length = max_size and tail.next_offset "
                    + "<= the checkpoint's): segment " + Long.toUnsignedString(tail.startOffset())
                    + " is not in the directory"));
        }
        // step 3: .log and .index above the tail
        List<String> deleted = new ArrayList<>();
        List<String> sameInode = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir,
                SegmentFiles.endingIn(SegmentFiles.LOG, SegmentFiles.INDEX))) {
            for (Path e : s) {
                String n = e.getFileName().toString();
                Long stem = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(n));
                if (stem != null && Long.compareUnsigned(stem, tail.startOffset()) > 0
                        && Long.compareUnsigned(stem, tail.nextOffset()) >= 0) {
                    deleted.add(n);
                } else if (cut && !n.equals(publicName) && Files.isSameFile(e, file)) {
                    sameInode.add(n);
                }
            }
        }
        deleted.sort(null);
        for (String n : deleted) {
            removed.add(n);
            steps.add(new WalOpenStep(WalOpenStep.Action.DELETE, n, null, null, null, "delete " + n + " (above the "
                    + "WAL's tail " + Long.toUnsignedString(tail.startOffset()) + ", at or past its next offset "
                    + Long.toUnsignedString(tail.nextOffset()) + ")"));
        }
        if (cut) {
            // the cut is the inode's: every name of it reads the published bytes only
            if (publicIsRetained || !retainedExists) {
                limits.put(publicName, published);
            }
            for (String n : sameInode) {
                limits.put(n, published);
            }
        }
        if (!tmpRemoved && Files.exists(dir.resolve(tmpName), LinkOption.NOFOLLOW_LINKS)) {
            notes.add(tmpName + " is the WAL's relinking name for its retained inode (METADATA 6.7): left alone");
        }
        DirectoryView view = new DirectoryView(removed, readAs, limits);
        Checkpoint opened = new Checkpoint(checkpoint.startOffset(), checkpoint.length(), checkpoint.nextOffset(),
                view);
        return new Result(new WalInputs(opened, source, steps, notes), null, null);
    }
}
