package segtool.analyzers.inputs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import segtool.formats.offsets.ConsumerOffset;

/**
 * The committed consumer and consumer-group offsets under a partition (FORMAT 7, METADATA 1.1):
 * {@code offsets/consumers/<id>} and {@code offsets/groups/<id>}, each classified as FORMAT 7 says, and flagged when
 * the committed offset lies above the end of the segment chain (a consumer that read messages recovery no longer
 * holds).
 */
public final class ConsumerOffsets {
    /** One offset file: {@code consumers} or {@code groups}, its id (file name), how it reads, and its value. */
    public record Entry(String kind, String id, ConsumerOffset.Kind state, Long offset) {
        /** True when the value is above {@code chainEnd} (the last offset the chain holds; null: no messages). */
        public boolean aboveChainEnd(Long chainEnd) {
            return offset != null && (chainEnd == null || Long.compareUnsigned(offset, chainEnd) > 0);
        }

        /** {@code consumers/7 = 1004}, {@code groups/3: torn (ignored)}, with the flag when above the end. */
        public String describe(Long chainEnd) {
            String v;
            switch (state) {
                case TORN:
                    v = ": torn (fewer than 8 bytes, ignored)";
                    break;
                case CORRUPT:
                    v = ": checksum mismatch (discarded, overwritten by the next commit)";
                    break;
                case LEGACY:
                    v = " = " + Long.toUnsignedString(offset) + " (legacy, unchecksummed)";
                    break;
                default:
                    v = " = " + Long.toUnsignedString(offset);
            }
            String flag = aboveChainEnd(chainEnd) ? " ABOVE the chain's end (" + (chainEnd == null ? "no messages"
                    : "last offset " + Long.toUnsignedString(chainEnd)) + ")" : "";
            return kind + "/" + id + v + flag;
        }
    }

    private ConsumerOffsets() {
    }

    /** Every regular file under {@code offsets/consumers} and {@code offsets/groups}, by kind then id. */
    public static List<Entry> list(Path partitionDir) throws IOException {
        List<Entry> out = new ArrayList<>();
        for (String kind : new String[] {"consumers", "groups"}) {
            Path d = partitionDir.resolve("offsets").resolve(kind);
            if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            List<Path> files = new ArrayList<>();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(d)) {
                for (Path f : s) {
                    if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                        files.add(f);
                    }
                }
            }
            files.sort((a, b) -> compareIds(a.getFileName().toString(), b.getFileName().toString()));
            for (Path f : files) {
                byte[] head = new byte[16];
                int got;
                try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
                    got = in.readNBytes(head, 0, 16);
                }
                ConsumerOffset c = ConsumerOffset.decode(Arrays.copyOf(head, got));
                Long value = c.kind() == ConsumerOffset.Kind.TORN || c.kind() == ConsumerOffset.Kind.CORRUPT
                        ? null : c.offset();
                out.add(new Entry(kind, f.getFileName().toString(), c.kind(), value));
            }
        }
        return out;
    }

    private static int compareIds(String a, String b) {
        boolean an = !a.isEmpty() && a.length() < 19 && a.chars().allMatch(Character::isDigit);
        boolean bn = !b.isEmpty() && b.length() < 19 && b.chars().allMatch(Character::isDigit);
        if (an && bn) {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        return an != bn ? (an ? -1 : 1) : a.compareTo(b);
    }
}
