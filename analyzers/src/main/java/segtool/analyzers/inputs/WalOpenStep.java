package segtool.analyzers.inputs;

/**
 * One thing the partition prepare WAL's open does to the partition directory before segment recovery reads it
 * (METADATA 6.7 steps 1-3), in the server's order. {@code file} is relative to the partition directory;
 * {@code from} is the file a link is made from (create, replace, link_retained), else null; {@code fromBytes} and
 * {@code toBytes} are the lengths a truncation goes between, else null. {@link #changes()} is true for a step that
 * changes something on disk, false for one that leaves everything as it is (the retained inode already holds exactly
 * the published bytes; the public name is already that inode); whether segment recovery sees a change is
 * {@link WalInputs#openChangesDirectory()}.
 */
public record WalOpenStep(Action action, String file, String from, Long fromBytes, Long toBytes, String text) {
    /** What a step does; {@link #json()} is its name in reports. */
    public enum Action {
        /** Step 1: the retained inode holds exactly {@code tail.length} bytes. No change. */
        KEEP(false),
        /** Step 1: neither the retained link nor the public name exists; the open creates the retained file empty. */
        CREATE_EMPTY(true),
        /** Step 1: the retained link is missing and is made from the public name. */
        LINK_RETAINED(true),
        /** Step 1: the retained inode is longer than {@code tail.length} and is cut to it (every name of it). */
        TRUNCATE(true),
        /** Step 2: a leftover {@code <S>.log.tmp} is removed before the re-link. */
        REMOVE_TMP(true),
        /** Step 2: the public {@code <S>.log} does not exist and is created from the retained inode. */
        CREATE(true),
        /** Step 2: the public {@code <S>.log} is another inode and is replaced by the retained one. */
        REPLACE(true),
        /** Step 2: the public name already is the retained inode. No change. */
        RELINK_SAME(false),
        /** Step 2 does not run and the public name does not exist: the tail segment is not in the directory. */
        NOT_RELINKED(false),
        /** Step 3: a {@code .log} or {@code .index} above the tail is deleted. */
        DELETE(true);

        private final boolean changes;

        Action(boolean changes) {
            this.changes = changes;
        }

        public String json() {
            return name().toLowerCase();
        }
    }

    public boolean changes() {
        return action.changes;
    }
}
