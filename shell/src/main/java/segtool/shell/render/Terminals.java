package segtool.shell.render;

import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** Terminal facts the renderers need: the width (80 when not a terminal) and whether colour makes sense. */
public final class Terminals {
    public static final int DEFAULT_WIDTH = 80;
    private static volatile Integer systemWidth;

    private Terminals() {
    }

    /**
     * The shell terminal's width ({@code t}, null outside the shell); else {@code COLUMNS} when it is a positive
     * number (as ls and git read it, so {@code COLUMNS=120 segtool scan ... > file} lays out for 120); else the system
     * terminal's; else 80.
     */
    public static int width(Terminal t) {
        if (t != null) {
            int w = t.getWidth();
            return w > 0 ? w : DEFAULT_WIDTH;
        }
        Integer columns = columns(System.getenv("COLUMNS"));
        if (columns != null) {
            return columns;
        }
        if (System.console() == null) {
            return DEFAULT_WIDTH;
        }
        Integer w = systemWidth;
        if (w == null) {
            w = probe();
            systemWidth = w;
        }
        return w;
    }

    /** A {@code COLUMNS} value as a width: a whole number of at least 20 (narrower is not laid out), else null. */
    static Integer columns(String value) {
        if (value == null || value.isEmpty() || value.length() > 5 || !value.chars().allMatch(Character::isDigit)) {
            return null;
        }
        int w = Integer.parseInt(value);
        return w >= 20 ? w : null;
    }

    private static int probe() {
        try (Terminal t = TerminalBuilder.builder().system(true).nativeSignals(false).dumb(true).build()) {
            int w = t.getWidth();
            return w > 0 ? w : DEFAULT_WIDTH;
        } catch (Exception | LinkageError e) {
            return DEFAULT_WIDTH;
        }
    }

    /**
     * Colour is possible: a real terminal (the shell's, {@code t}, or stdout) that is not dumb, and NO_COLOR is unset.
     */
    public static boolean colorCapable(Terminal t) {
        if (System.getenv("NO_COLOR") != null) {
            return false;
        }
        if (t != null) {
            return !isDumb(t.getType());
        }
        return System.console() != null && !isDumb(System.getenv("TERM"));
    }

    private static boolean isDumb(String type) {
        return type == null || type.isEmpty() || type.startsWith(Terminal.TYPE_DUMB);
    }
}
