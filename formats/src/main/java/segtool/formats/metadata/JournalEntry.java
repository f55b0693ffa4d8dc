package segtool.formats.metadata;

/**
 * One {@code PrepareHeader} of {@code metadata/journal.wal} (METADATA 4.1) and where its entry lies. 128-bit fields
 * are kept as their low and high 64 bits; the body stays on disk ({@link JournalReader#body}).
 * <pre>
 *   0 checksum u128 | 16 checksum_body u128 | 32 cluster u128 | 48 size u32 | 52 view u32 | 56 release u32
 *  60 command u8 | 61 replica u8 | 62..128 reserved_frame | 128 client u128 | 144 parent u128
 * 160 request_checksum u128 | 176 op u64 | 184 commit u64 | 192 timestamp u64 | 200 request u64 | 208 operation u8
 * 216 group u64 | 224 user_id u32 | 228..256 reserved, or retry_capacity u32 @228 and session u64 @248
 * </pre>
 */
public record JournalEntry(long position, long size, long checksumLow, long checksumHigh, long bodyChecksumLow,
                           long bodyChecksumHigh, long parentLow, long parentHigh, int view, int release,
                           long op, long commit, long timestamp, int operation, long group, long userId) {
    public static final int HEADER_LENGTH = 256;
    public static final int CHECKSUM_OFFSET = 0;
    public static final int CHECKSUM_BODY_OFFSET = 16;
    public static final int CLUSTER_OFFSET = 32;
    public static final int SIZE_OFFSET = 48;
    public static final int VIEW_OFFSET = 52;
    public static final int RELEASE_OFFSET = 56;
    public static final int COMMAND_OFFSET = 60;
    public static final int REPLICA_OFFSET = 61;
    public static final int RESERVED_FRAME_OFFSET = 62;
    public static final int RESERVED_FRAME_LENGTH = 66;
    public static final int CLIENT_OFFSET = 128;
    public static final int PARENT_OFFSET = 144;
    public static final int REQUEST_CHECKSUM_OFFSET = 160;
    public static final int OP_OFFSET = 176;
    public static final int COMMIT_OFFSET = 184;
    public static final int TIMESTAMP_OFFSET = 192;
    public static final int REQUEST_OFFSET = 200;
    public static final int OPERATION_OFFSET = 208;
    public static final int GROUP_OFFSET = 216;
    public static final int USER_ID_OFFSET = 224;
    /** {@code command} of a prepare. */
    public static final int COMMAND_PREPARE = 6;
    /** Largest entry the metadata journal holds. */
    public static final long MAX_SIZE = 64L << 20;

    /** Operation tags of METADATA 4.4 that touch streams and topics. */
    public static final int CREATE_TOPIC_WITH_ASSIGNMENTS = 64;
    public static final int CREATE_PARTITIONS_WITH_ASSIGNMENTS = 65;
    public static final int TRUNCATE_PARTITION = 68;
    public static final int CREATE_STREAM = 128;
    public static final int UPDATE_STREAM = 129;
    public static final int DELETE_STREAM = 130;
    public static final int PURGE_STREAM = 131;
    public static final int CREATE_TOPIC = 132;
    public static final int UPDATE_TOPIC = 133;
    public static final int DELETE_TOPIC = 134;
    public static final int PURGE_TOPIC = 135;
    public static final int DELETE_PARTITIONS = 137;

    public boolean sealed() {
        return (checksumLow | checksumHigh) != 0 && (bodyChecksumLow | bodyChecksumHigh) != 0;
    }

    /** True when this entry's parent is {@code previous}'s identity checksum. */
    public boolean parentIs(JournalEntry previous) {
        return parentLow == previous.checksumLow && parentHigh == previous.checksumHigh;
    }

    public long bodyLength() {
        return size - HEADER_LENGTH;
    }
}
