package segtool.shell.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain column layout that prints row by row, so a listing of millions of batches never sits in memory. Widths
 * are fixed up front (from what the file can hold); a longer value simply pushes the row out. The last column is
 * free text.
 */
public final class Table {
    private final List<String> headers = new ArrayList<>();
    private final List<Integer> widths = new ArrayList<>();
    private final List<Boolean> right = new ArrayList<>();

    public Table col(String header, int width, boolean alignRight) {
        headers.add(header);
        widths.add(Math.max(width, header.length()));
        right.add(alignRight);
        return this;
    }

    public void header(PrintWriter out) {
        out.println(line(headers.toArray(new String[0])));
    }

    public void row(PrintWriter out, String... cells) {
        out.println(line(cells));
    }

    private String line(String[] cells) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i] == null ? "-" : cells[i];
            boolean last = i == cells.length - 1;
            if (i > 0) {
                b.append("  ");
            }
            int w = widths.get(i);
            if (right.get(i)) {
                b.append(" ".repeat(Math.max(0, w - c.length()))).append(c);
            } else if (last) {
                b.append(c);
            } else {
                b.append(c).append(" ".repeat(Math.max(0, w - c.length())));
            }
        }
        return b.toString().stripTrailing();
    }

    /** Digits of an unsigned value, for sizing a column. */
    public static int digits(long v) {
        return Long.toUnsignedString(v).length();
    }
}
