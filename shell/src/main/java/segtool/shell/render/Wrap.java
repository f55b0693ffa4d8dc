package segtool.shell.render;

import java.util.ArrayList;
import java.util.List;

/** Word wrapping for fact lines: a label column, then text wrapped under itself. */
public final class Wrap {
    private Wrap() {
    }

    /** Lines of at most {@code width} columns (a single long word may exceed it; paths are never broken). */
    public static List<String> words(String text, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : glued(text.split(" "))) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0 || out.isEmpty()) {
            out.add(line.toString());
        }
        return out;
    }

    /** The words, with a binary unit kept on its number's line: {@code (7.9 KiB)} is never broken. */
    private static List<String> glued(String[] words) {
        List<String> out = new ArrayList<>(words.length);
        for (String w : words) {
            if (!out.isEmpty() && isUnit(w) && isNumber(out.get(out.size() - 1))) {
                out.set(out.size() - 1, out.get(out.size() - 1) + " " + w);
            } else {
                out.add(w);
            }
        }
        return out;
    }

    /** {@code [KMGTPE]iB\)?[,;:.]?}: a binary unit, perhaps closing a parenthesis, perhaps with punctuation. */
    static boolean isUnit(String w) {
        int n = w.length();
        if (n < 3 || "KMGTPE".indexOf(w.charAt(0)) < 0 || w.charAt(1) != 'i' || w.charAt(2) != 'B') {
            return false;
        }
        int i = 3;
        if (i < n && w.charAt(i) == ')') {
            i++;
        }
        if (i < n && ",;:.".indexOf(w.charAt(i)) >= 0) {
            i++;
        }
        return i == n;
    }

    /** {@code \(?[0-9.]+}: a number, perhaps opening a parenthesis. */
    static boolean isNumber(String w) {
        int i = !w.isEmpty() && w.charAt(0) == '(' ? 1 : 0;
        if (i == w.length()) {
            return false;
        }
        for (; i < w.length(); i++) {
            char c = w.charAt(i);
            if ((c < '0' || c > '9') && c != '.') {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code indent + label} padded to {@code labelWidth}, then {@code text} wrapped to {@code width}. A newline in
     * {@code text} starts a new paragraph; a paragraph starting with {@code "$ "} is a command line to copy and is
     * never wrapped.
     */
    public static String labelled(String indent, String label, int labelWidth, String text, int width) {
        int textWidth = Math.max(20, width - indent.length() - labelWidth);
        String pad = " ".repeat(indent.length() + labelWidth);
        StringBuilder b = new StringBuilder();
        List<String> lines = new ArrayList<>();
        for (String paragraph : text.split("\n")) {
            if (paragraph.startsWith("$ ")) {
                lines.add(paragraph);
            } else {
                lines.addAll(words(paragraph, textWidth));
            }
        }
        String head = indent + label;
        if (head.length() >= indent.length() + labelWidth) {
            head = head + " ";
        } else {
            head = head + " ".repeat(indent.length() + labelWidth - head.length());
        }
        for (int i = 0; i < lines.size(); i++) {
            b.append(i == 0 ? head : pad).append(lines.get(i));
            if (i < lines.size() - 1) {
                b.append('\n');
            }
        }
        return b.toString();
    }
}
