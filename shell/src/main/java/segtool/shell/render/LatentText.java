package segtool.shell.render;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.LatentDamage;
import segtool.formats.io.U64;

/**
 * Latent damage in plain words (RECOVERY 11.1): the server boots, and these are the places where readers will fail.
 * The findings come from analyzers' {@link LatentDamage}; this only words them.
 */
public final class LatentText {
    private LatentText() {
    }

    /** One line for the summary: how many stretches in how many segments, or null when there is none. */
    public static String mark(LatentDamage.Report r) {
        if (r == null || !r.damaged()) {
            return null;
        }
        long segments = r.segments().stream().filter(LatentDamage.Segment::damaged).count();
        return "latent damage: " + r.findings() + " stretch(es) in " + segments + " segment(s) fail verification "
                + "below the last index entry; the server boots, readers will fail there (exit 5)";
    }

    /** The lines for each finding, and for a segment that could not be read; empty when all is well. */
    public static List<String> lines(LatentDamage.Report r) {
        List<String> out = new ArrayList<>();
        if (r == null) {
            return out;
        }
        for (LatentDamage.Segment s : r.segments()) {
            for (LatentDamage.Finding f : s.findings()) {
                out.add("segment " + U64.str(s.start()) + ": bytes [" + U64.str(f.from()) + ", " + U64.str(f.to())
                        + ")" + (f.hasOffsets() ? ", " + offsets(f) : "") + ": " + f.check());
            }
            if (s.ioError() != null) {
                out.add("segment " + U64.str(s.start()) + ": the latent-damage check could not read it: "
                        + s.ioError() + " (not a verdict about its bytes)");
            }
        }
        return out;
    }

    /** What explain says: the server boots, and where readers will fail. Empty when there is no latent damage. */
    public static List<String> explain(LatentDamage.Report r) {
        List<String> out = new ArrayList<>();
        if (r == null || !r.damaged()) {
            return out;
        }
        out.add("Latent damage: the server will boot this partition as judged above, because in durable mode it "
                + "reads each segment only from its last index entry on and checks the bytes below it by their "
                + "256-byte headers alone, without a checksum (RECOVERY 11.1). segtool verified those bytes too. "
                + "Readers will fail here: a poll that reaches these bytes fails its checksum check "
                + "(partition.validate_checksum, on by default), or returns records that do not verify when it is "
                + "off.");
        for (String line : lines(r)) {
            out.add("  " + line);
        }
        out.add("  The verdict above stays as it is until a boot walks these bytes (a lenient boot, or a durable "
                + "one whose index was dropped: the rebuild from byte 0 then refuses at the first stretch). To keep what verifies, "
                + "salvage the partition; the stretches themselves only a replica or a backup can give back.");
        return out;
    }

    private static String offsets(LatentDamage.Finding f) {
        return f.firstOffset() == f.lastOffset() ? "offset " + U64.str(f.firstOffset())
                : "offsets " + U64.str(f.firstOffset()) + ".." + U64.str(f.lastOffset());
    }
}
