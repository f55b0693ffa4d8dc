package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Hard links between a partition's segment logs and its prepare WAL (METADATA 6.7): the WAL retains
 * {@code prepares-<rev>/segment-<generation>-<start>.log} as a second name of a segment's inode, and uses
 * {@code <start>.log.tmp} while relinking. A {@code .log} with more than one link belongs partly to the WAL.
 */
public final class WalLinks {
    private WalLinks() {
    }

    /** The inode's link count, or 1 where the file system does not report one. */
    public static int linkCount(Path file) throws IOException {
        try {
            Object n = Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            return n instanceof Integer ? (Integer) n : 1;
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return 1;
        }
    }

    /**
     * The start of every refusal to change {@code file}, or null when it has one name: "{@code <file>} has
     * {@code n} hard links (the prepare WAL retains a segment's inode as prepares-*&#47;segment-*.log)".
     */
    public static String linked(Path file) throws IOException {
        int links = linkCount(file);
        if (links <= 1) {
            return null;
        }
        return file + " has " + links + " hard links (the prepare WAL retains a segment's inode as "
                + "prepares-*/segment-*.log)";
    }

    /**
     * Why {@code file} must not be truncated in place, or null: an inode with more than one link is also the prepare
     * WAL's retained copy (prepares-*&#47;segment-*.log), which truncating it would shorten too, and METADATA 6.7 asks
     * for a new file and a rename instead, which segtool does not write. Asked when a repair is planned and again
     * just before the truncation, since a link can appear in between.
     */
    public static String inPlaceTruncation(Path file) throws IOException {
        return withReason(file, ": truncating it in place would truncate the WAL's copy too, and METADATA "
                + "6.7 says a repair must write a new file and rename it instead; segtool does not do that yet, so it "
                + "changes nothing here");
    }

    /**
     * Why {@code file} must not be fenced (renamed into a fence directory, an empty file seeded under its name), or
     * null: for an inode the prepare WAL retains, the move would not last, since step 2 of the WAL open re-creates
     * the public name from the retained inode at every boot (METADATA 6.7), bringing the fenced bytes back. Asked
     * when a repair is planned and again just before the move.
     */
    public static String fenceRefusal(Path file) throws IOException {
        return withReason(file, ": fencing it would leave the WAL's copy, and the WAL open re-creates the public name from "
                + "that copy at every boot (METADATA 6.7 step 2), so the fenced bytes would come back; segtool "
                + "changes nothing here");
    }

    /**
     * Why {@code restore} must not change {@code file} in the way {@code what} says ("append 100 bytes to it in
     * place", "rename a new file over it", "delete it"), or null when it has one name. Neither way is safe for a
     * WAL-retained inode (METADATA 6.7): a write in place writes the WAL's copy too, and a new inode under the public
     * name does not last, since step 2 of the WAL open re-creates that name from the retained inode at every boot
     * (and a deleted name likewise). Repair neither truncates nor fences a linked log, so the link appeared after the
     * repair.
     */
    public static String restoreRefusal(Path file, String what) throws IOException {
        return withReason(file, ", a link made after the repair: restore would " + what + ", but writing in place writes "
                + "the WAL's copy too, and a new file renamed over the name does not last (METADATA 6.7 step 2: the "
                + "WAL open re-creates the public name from its retained inode at every boot); restore changes "
                + "nothing (the quarantine keeps the bytes)");
    }

    /** {@link #linked} followed by {@code reason}, or null when {@code file} has one name. */
    private static String withReason(Path file, String reason) throws IOException {
        String linked = linked(file);
        return linked == null ? null : linked + reason;
    }

    /** The note for a segment log with {@code links} > 1 links, or null. */
    public static String note(int links) {
        if (links <= 1) {
            return null;
        }
        return links + " hard links: the prepare WAL retains this inode (prepares-*/segment-*.log, METADATA 6.7); "
                + "truncating it in place also shortens the WAL's copy";
    }

    /** True for {@code <start>.log.tmp}, the WAL's relinking name. */
    public static boolean isRelinkName(String name) {
        return name.endsWith(".log.tmp");
    }
}
