package segtool.shell.render;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;
import segtool.analyzers.salvage.OffsetRanges;
import segtool.analyzers.salvage.Salvager;
import segtool.analyzers.salvage.Source;
import segtool.formats.io.U64;

/** The text summary of a salvage: what the archive holds, what is lost, and where the damaged bytes are. */
public final class SalvageText {
    private SalvageText() {
    }

    /** Offset ranges in words: {@code offsets 0..3, 7}, or {@code none}. */
    public static String offsets(List<OffsetRanges.Range> ranges) {
        if (ranges.isEmpty()) {
            return "none";
        }
        return "offsets " + ranges.stream().map(OffsetRanges.Range::toString).collect(Collectors.joining(", "));
    }

    public static void summary(PrintWriter w, Salvager.Result r, List<String> problems, boolean quiet, Style style) {
        long chain = 0;
        long past = 0;
        long fenced = 0;
        long quarantined = 0;
        long unverified = 0;
        for (Salvager.SourceResult s : r.sources()) {
            unverified += s.unverified();
            switch (s.source().kind()) {
                case SEGMENT -> {
                    chain += s.chainBatches();
                    past += s.batches() - s.chainBatches();
                }
                case FENCE -> fenced += s.batches();
                case QUARANTINE -> quarantined += s.batches();
                default -> throw new AssertionError(s.source().kind());
            }
        }
        w.println("salvaged " + r.partition().directory() + " into " + r.archive());
        w.printf("  %d record(s) that verify: %d in the verified chain, %d past damage, %d fenced, %d quarantined%s; "
                        + "%d message(s), %s%n", r.batches() - unverified, chain, past, fenced, quarantined,
                unverified == 0 ? "" : " (and " + unverified + " that do not verify, marked unverified)",
                r.messages(), Bytes.size(r.bytes()));
        w.println("  in the archive: " + offsets(r.archived().list()));
        if (!r.unverified().isEmpty()) {
            w.println("  only unverified copies of: " + offsets(r.unverified().list()));
        }
        String lost = r.lost().isEmpty() ? "none" : offsets(r.lost()) + " (no record that verifies holds them)";
        w.println("  lost:           " + (r.lost().isEmpty() ? lost : style.paint(Style.Paint.RED, lost)));
        if (r.hasSpan()) {
            w.println("  beyond offset " + U64.str(r.spanLast()) + " nothing on disk says whether more offsets "
                    + "were written");
        }
        if (!quiet) {
            for (Salvager.SourceResult s : r.sources()) {
                for (Salvager.ByteRange b : s.lost()) {
                    w.println("  damaged bytes:  " + where(s) + " [" + U64.str(b.from()) + ", " + U64.str(b.to())
                            + ") " + Bytes.size(b.length()) + ": " + b.why());
                }
                for (Salvager.ByteRange b : s.unexamined()) {
                    w.println(style.paint(Style.Paint.YELLOW, "  NOT EXAMINED:   " + where(s) + " ["
                            + U64.str(b.from()) + ", " + U64.str(b.to()) + "): " + b.why()));
                }
            }
        }
        for (String p : problems) {
            w.println(style.paint(Style.Paint.YELLOW, "  warning: " + p));
        }
        w.println(r.complete() ? "  complete: every byte of every file read belongs to a record that verifies"
                : "  incomplete: the lines above say exactly what the archive does not hold");
    }

    private static String where(Salvager.SourceResult s) {
        Source src = s.source();
        String name = src.origin().getFileName().toString();
        return switch (src.kind()) {
            case SEGMENT -> name;
            case FENCE -> "fence " + src.fenceNumber() + "/" + name;
            case QUARANTINE -> "quarantine copy of " + name;
        };
    }
}
