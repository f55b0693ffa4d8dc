package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.Checkpoint;
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
    /** The WAL's answer, or the refusal that replaces a verdict. */
    record Result(WalInputs inputs, PartitionInputs.Refusal refusal, String line) {
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
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "prepares-*")) {
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
        String source = name + "/frontier slot " + w.index() + ", sequence " + Long.toUnsignedString(w.sequence());
        if (w.segments() == null) {
            return new Result(new WalInputs(null, source + ": no segment state", List.of(), notes), null, null);
        }
        Frontier.SegmentState seg = w.segments();
        Frontier.Position cp = seg.checkpoint();
        Checkpoint checkpoint = new Checkpoint(cp.startOffset(), cp.length(), cp.nextOffset());
        return open(dir, wal, name, seg, checkpoint, source, notes);
    }

    /** METADATA 6.7 steps 1-3: what the open changes before segment recovery; a change means no verdict yet. */
    private static Result open(Path dir, Path wal, String name, Frontier.SegmentState seg, Checkpoint checkpoint,
                               String source, List<String> notes) throws IOException {
        Frontier.Position tail = seg.tail();
        String publicName = SegmentFiles.stem(tail.startOffset()) + SegmentFiles.LOG;
        Path pub = dir.resolve(publicName);
        Path retained = wal.resolve("segment-" + Long.toUnsignedString(tail.generation()) + "-"
                + Long.toUnsignedString(tail.startOffset()) + ".log");
        List<String> actions = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        Path file = Files.exists(retained) ? retained : Files.exists(pub) ? pub : null;
        if (file == null) {
            return Result.refuse(PartitionInputs.Refusal.UNDECIDED, name + ": neither " + retained.getFileName()
                    + " nor " + publicName + " exists for the WAL's tail segment; what the open then does is not "
                    + "specified");
        }
        String shown = file == retained ? name + "/" + retained.getFileName() : publicName;
        long size = Files.size(file);
        if (Long.compareUnsigned(size, tail.length()) < 0) {
            return Result.refuse(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, "PrepareWal: " + shown + " holds "
                    + size + " bytes, fewer than the " + Long.toUnsignedString(tail.length())
                    + " the frontier published (lost durably published bytes)");
        }
        if (size > tail.length()) {
            changes.add("truncate " + shown + " from " + size + " to " + Long.toUnsignedString(tail.length())
                    + " bytes");
        } else {
            actions.add(shown + " holds the " + Long.toUnsignedString(tail.length()) + " published bytes: kept");
        }
        boolean relink = Long.compareUnsigned(tail.length(), seg.maxSize()) < 0
                || Long.compareUnsigned(tail.nextOffset(), checkpoint.nextOffset()) > 0 || Files.exists(pub);
        if (relink) {
            if (Files.exists(pub) && Files.isSameFile(pub, file)) {
                actions.add("re-link " + publicName + " to the WAL's retained inode: already that inode, no change");
            } else {
                changes.add((Files.exists(pub) ? "replace " : "create ") + publicName + " from the WAL's retained "
                        + "inode (through " + publicName + ".tmp)");
            }
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.{log,index}")) {
            for (Path e : s) {
                String n = e.getFileName().toString();
                Long stem = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(n));
                if (stem != null && Long.compareUnsigned(stem, tail.startOffset()) > 0
                        && Long.compareUnsigned(stem, tail.nextOffset()) >= 0) {
                    changes.add("delete " + n + " (above the WAL's tail " + Long.toUnsignedString(tail.startOffset())
                            + ", at or past its next offset " + Long.toUnsignedString(tail.nextOffset()) + ")");
                }
            }
        }
        if (Files.exists(dir.resolve(publicName + ".tmp"))) {
            notes.add(publicName + ".tmp is the WAL's relinking name for its retained inode (METADATA 6.7): left alone");
        }
        if (!changes.isEmpty()) {
            changes.sort(null);
            return Result.refuse(PartitionInputs.Refusal.UNDECIDED, "the WAL open (" + source + ") first changes the "
                    + "directory: " + String.join("; ", changes) + "; segtool does not predict RECOVERY 9 on the "
                    + "changed directory");
        }
        return new Result(new WalInputs(checkpoint, source, actions, notes), null, null);
    }
}
