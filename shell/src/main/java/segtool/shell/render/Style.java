package segtool.shell.render;

/**
 * ANSI styling that switches itself off: no colour with {@code --no-color}, with {@code NO_COLOR} set, when output
 * is not a terminal, or on a dumb terminal. Text must read the same without colour, so colour only ever repeats
 * what the characters already say.
 */
public final class Style {
    public enum Paint {
        BOLD("1"), DIM("2"), GREEN("32"), YELLOW("33"), RED("31;1"), MAGENTA("35"), BLUE("34;1"), CYAN("36"),
        GREY("90");

        final String sgr;

        Paint(String sgr) {
            this.sgr = sgr;
        }
    }

    public static final Style PLAIN = new Style(false);

    private final boolean color;

    public Style(boolean color) {
        this.color = color;
    }

    public boolean color() {
        return color;
    }

    public String paint(Paint p, String s) {
        if (!color || s.isEmpty()) {
            return s;
        }
        return "\u001b[" + p.sgr + "m" + s + "\u001b[0m";
    }

    public String bold(String s) {
        return paint(Paint.BOLD, s);
    }
}
