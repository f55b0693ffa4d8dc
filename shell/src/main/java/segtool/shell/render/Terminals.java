package segtool.shell.render;

import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** Terminal facts the renderers need: the width (80 when not a terminal) and whether colour makes sense. */
public final class Terminals {
    public static final int DEFAULT_WIDTH = 80;
    private static volatile Integer systemWidth;

    private Terminals() {
    }

    /** The shell terminal's width ({@code t}, null outside the shell); else the system terminal's; else 80. */
    public static int width(Terminal t) {
        if (t != null) {
            int w = t.getWidth();
            return w > 0 ? w : DEFAULT_WIDTH;
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
