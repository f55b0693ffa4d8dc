package segtool.shell.render;

import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * picocli's usage help, wrapped only at spaces. picocli fills its text columns through {@link java.text.BreakIterator}
 * line breaks, which also fall inside tokens: after the dot of {@code segtool.plan/2} or {@code expected.json}, after
 * the comma of {@code --stream=ID[,ID...]}, after a closing parenthesis. A name, a path or an option split over two
 * lines cannot be copied. Here every table picocli lays out is a {@link WholeWords}, which hands picocli one line at
 * a time, cut at the last space that fits; picocli still does all the rest (sections, columns, indents, styles).
 * A token wider than its column gets a line of its own, moved left as far as it must to end within the width (into
 * the empty columns before it), and only a token wider than the whole width makes its line overflow: no token is
 * ever split.
 *
 * <p>Installed for the whole tree with {@link #install}, together with the width, asked for only when help is shown
 * (the terminal's, {@link Terminals#width}, for the command line and the shell), at least picocli's minimum of 55.
 */
public final class HelpLayout extends Help {
    private static final int MIN_WIDTH = 55;
    /** picocli's {@code UsageMessageSpec.MAX_SYNOPSIS_AUTO_INDENT_THRESHOLD} (private there). */
    private static final double MAX_SYNOPSIS_INDENT = 0.9;

    public HelpLayout(CommandSpec spec, ColorScheme scheme) {
        super(spec, scheme);
    }

    /**
     * Every command of {@code cmd}'s tree (as it is now) gets this help, laid out {@code width} columns wide (at
     * least 55), the width read each time a help is made.
     */
    public static void install(CommandLine cmd, java.util.function.IntSupplier width) {
        cmd.setHelpFactory((spec, scheme) -> {
            spec.usageMessage().width(Math.max(MIN_WIDTH, width.getAsInt()));
            return new HelpLayout(spec, scheme);
        });
    }

    private int width() {
        return commandSpec().usageMessage().width();
    }

    private boolean cjk() {
        return commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters();
    }

    private static String format(String s, Object... params) {
        try {
            return s == null ? "" : String.format(s, params);
        } catch (IllegalFormatException e) {
            return s;
        }
    }

    /** Free text (description, header, footer): one column the whole width, as picocli's {@code join}. */
    private String join(String[] values, Object... params) {
        StringBuilder sb = new StringBuilder();
        if (values != null) {
            TextTable table = WholeWords.of(colorScheme(), cjk(), new Column(width(), 0, Column.Overflow.WRAP));
            table.indentWrappedLines = 0;
            for (String line : values) {
                table.addRowValues(format(line, params));
            }
            table.toString(sb);
        }
        return sb.toString();
    }

    @Override
    public String description(Object... params) {
        return join(commandSpec().usageMessage().description(), params);
    }

    @Override
    public String header(Object... params) {
        return join(commandSpec().usageMessage().header(), params);
    }

    @Override
    public String footer(Object... params) {
        return join(commandSpec().usageMessage().footer(), params);
    }

    @Override
    public String customSynopsis(Object... params) {
        return join(commandSpec().usageMessage().customSynopsis(), params);
    }

    /** The option and parameter lists: picocli's five default columns and renderers. */
    @Override
    public Layout createDefaultLayout(List<OptionSpec> options, List<PositionalParamSpec> positionals,
                                      ColorScheme scheme) {
        int longOptions = calcLongOptionColumnWidth(options, positionals, scheme);
        TextTable table = WholeWords.of(scheme, cjk(),
                TextTable.forDefaultColumns(scheme, longOptions, width()).columns());
        return new Layout(scheme, table, createDefaultOptionRenderer(), createDefaultParameterRenderer());
    }

    /** Key-value lists (the exit codes), as picocli lays them out. */
    @Override
    public TextTable createTextTable(Map<?, ?> map) {
        if (map == null || map.isEmpty()) {
            return super.createTextTable(map);
        }
        int keyLength = Math.min(width() - 4, longest(map.keySet()));
        TextTable table = WholeWords.of(colorScheme(), cjk(),
                new Column(keyLength + 3, 2, Column.Overflow.SPAN),
                new Column(width() - (keyLength + 3), 2, Column.Overflow.WRAP));
        for (Map.Entry<?, ?> e : map.entrySet()) {
            table.addRowValues(format(String.valueOf(e.getKey())), format(String.valueOf(e.getValue())));
        }
        return table;
    }

    /** The subcommands with the first line of each one's header or description, as picocli lists them. */
    @Override
    public String commandList(Map<String, Help> subcommands) {
        if (subcommands.isEmpty()) {
            return "";
        }
        int names = Math.min(longest(subcommands.keySet()), width() / 2);
        TextTable table = WholeWords.of(colorScheme(), cjk(),
                new Column(names + 2, 2, Column.Overflow.SPAN),
                new Column(width() - (names + 2), 2, Column.Overflow.WRAP));
        for (Help help : subcommands.values()) {
            UsageMessageSpec usage = help.commandSpec().usageMessage();
            String first = usage.header().length > 0 ? usage.header()[0]
                    : usage.description().length > 0 ? usage.description()[0] : "";
            Text[] lines = colorScheme().text(format(first)).splitLines();
            for (int i = 0; i < lines.length; i++) {
                table.addRowValues(i == 0 ? help.commandNamesText(", ") : Ansi.OFF.new Text(""), lines[i]);
            }
        }
        return table.toString();
    }

    /** The synopsis, its wrapped lines indented under the first option, as picocli does. */
    @Override
    protected String insertSynopsisCommandName(int headingLength, Text details) {
        String name = commandSpec().qualifiedName();
        UsageMessageSpec usage = commandSpec().usageMessage();
        int indent = headingLength + name.length() + 1;
        if (indent > usage.synopsisAutoIndentThreshold() * width()) {
            indent = usage.synopsisIndent() < 0 ? headingLength : usage.synopsisIndent();
            indent = Math.min(indent, (int) (MAX_SYNOPSIS_INDENT * width()));
        }
        TextTable table = WholeWords.of(colorScheme(), cjk(), new Column(width(), 0, Column.Overflow.WRAP));
        table.indentWrappedLines = indent;
        Text padding = Ansi.OFF.new Text("X".repeat(headingLength), colorScheme());
        table.addRowValues(padding.concat(colorScheme().commandText(name)).concat(details));
        return table.toString().substring(headingLength);
    }

    private static int longest(java.util.Collection<?> values) {
        int n = 0;
        for (Object v : values) {
            n = Math.max(n, String.valueOf(v).length());
        }
        return n;
    }

    /**
     * A picocli table whose wrapping columns break lines at spaces only: each value is cut into lines at the last
     * space that fits, and picocli writes each line (which fits, so picocli's own break finder never cuts it).
     */
    public static final class WholeWords extends TextTable {
        private final ColorScheme scheme;
        /**
         * Cells (row * columns + column) holding one token wider than their column, with the indent they would have
         * had: picocli's cells cannot hold them, so {@link #toString(StringBuilder)} writes them whole.
         */
        private final Map<Integer, Text> wide = new java.util.HashMap<>();
        private final Map<Integer, Integer> wideIndent = new java.util.HashMap<>();

        private WholeWords(ColorScheme scheme, Column[] columns) {
            super(scheme, columns);
            this.scheme = scheme;
        }

        public static WholeWords of(ColorScheme scheme, boolean cjk, Column... columns) {
            WholeWords t = new WholeWords(scheme, columns);
            t.setAdjustLineBreaksForWideCJKCharacters(cjk);
            return t;
        }

        @Override
        public Cell putValue(int row, int col, Text value) {
            Column column = columns()[col];
            if (column.overflow != Column.Overflow.WRAP || value == null || value.plainString().isEmpty()) {
                return super.putValue(row, col, value);
            }
            String plain = value.plainString();
            int start = 0;
            int line = row;
            boolean wrapped = false;
            while (true) {
                int extra = wrapped ? indentWrappedLines : 0;
                int room = column.width - column.indent - extra;
                int end = lineEnd(plain, start, room);
                Text piece = value.substring(start, end);
                Cell cell;
                if (end - start > room) {
                    if (!wrapped && !rowEmptyBesides(line, col)) {
                        // the row already shows the option's names: the token starts the next line
                        addEmptyRow();
                        line++;
                    }
                    int key = line * columns().length + col;
                    wide.put(key, piece);
                    wideIndent.put(key, columnStart(col) + column.indent + extra);
                    cell = new Cell(col, line);
                } else {
                    if (wrapped && indentWrappedLines > 0) {
                        piece = scheme.ansi().new Text(" ".repeat(indentWrappedLines), scheme).concat(piece);
                    }
                    cell = super.putValue(line, col, piece);
                }
                start = end;
                while (start < plain.length() && plain.charAt(start) == ' ') {
                    start++;
                }
                if (start >= plain.length()) {
                    return cell;
                }
                line = cell.row;
                addEmptyRow();
                line++;
                wrapped = true;
            }
        }

        private boolean rowEmptyBesides(int row, int col) {
            for (int c = 0; c < columns().length; c++) {
                if (c != col && !textAt(row, c).plainString().isEmpty()) {
                    return false;
                }
            }
            return true;
        }

        private int columnStart(int col) {
            int at = 0;
            for (int c = 0; c < col; c++) {
                at += columns()[c].width;
            }
            return at;
        }

        private int tableWidth() {
            return columnStart(columns().length);
        }

        /**
         * picocli's rendering (each row its columns' texts, padded to their widths, right-trimmed), except that a row
         * holding a token too wide for its column is that token alone: at the column's indent when it fits there,
         * else moved left until it ends at the table's width, else (wider than the whole width) from column 0.
         */
        @Override
        public StringBuilder toString(StringBuilder text) {
            Column[] cols = columns();
            StringBuilder row = new StringBuilder();
            for (int r = 0; r < rowCount(); r++) {
                row.setLength(0);
                Text token = null;
                int indent = 0;
                for (int c = 0; c < cols.length && token == null; c++) {
                    token = wide.get(r * cols.length + c);
                    if (token != null) {
                        int len = token.plainString().length();
                        indent = Math.max(0, Math.min(wideIndent.get(r * cols.length + c), tableWidth() - len));
                    }
                }
                if (token != null) {
                    row.append(" ".repeat(indent)).append(token);
                } else {
                    for (int c = 0; c < cols.length; c++) {
                        Text cell = textAt(r, c);
                        row.append(cell.toString()).append(" ".repeat(Math.max(0, cols[c].width
                                - cell.plainString().length())));
                    }
                }
                int last = row.length() - 1;
                while (last >= 0 && row.charAt(last) == ' ') {
                    last--;
                }
                row.setLength(last + 1);
                text.append(row).append(System.lineSeparator());
            }
            return text;
        }

        /**
         * Where the line that starts at {@code start} ends: the whole rest when it fits in {@code room}, else at the
         * last space that keeps it within {@code room}, else (one token wider than the line) after that token.
         */
        static int lineEnd(String s, int start, int room) {
            if (s.length() - start <= room) {
                return s.length();
            }
            int limit = start + Math.max(room, 1);
            for (int i = limit; i > start; i--) {
                if (s.charAt(i) == ' ') {
                    int end = i;
                    while (end > start && s.charAt(end - 1) == ' ') {
                        end--;
                    }
                    if (end > start) {
                        return end;
                    }
                }
            }
            int end = s.indexOf(' ', start);
            return end < 0 ? s.length() : end;
        }
    }
}
