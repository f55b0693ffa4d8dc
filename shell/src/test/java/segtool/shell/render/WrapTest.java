package segtool.shell.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Wrapping keeps a size's number and unit on one line; the hand-written word checks equal the patterns they replace. */
class WrapTest {
    private static final Pattern UNIT = Pattern.compile("[KMGTPE]iB\\)?[,;:.]?");
    private static final Pattern NUMBER = Pattern.compile("\\(?[0-9.]+");

    @Test
    void aSizeIsNeverBroken() {
        // 16 columns: "a log of (7.9" would fit, but the unit stays with its number
        assertEquals(List.of("a log of", "(7.9 KiB), cut"), Wrap.words("a log of (7.9 KiB), cut", 16));
        assertEquals(List.of("1.5 GiB;", "more"), Wrap.words("1.5 GiB; more", 8));
        for (String unit : new String[] {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}) {
            assertEquals(List.of("size", "2 " + unit), Wrap.words("size 2 " + unit, 6), unit);
        }
    }

    @Test
    void wordChecksAsThePatterns() {
        List<String> words = new ArrayList<>();
        String[] pieces = {"", "K", "M", "G", "T", "P", "E", "X", "i", "B", ")", ",", ";", ":", ".", "(", "0", "9", "7.9",
            "a", "KiB"};
        for (String a : pieces) {
            for (String b : pieces) {
                for (String c : pieces) {
                    words.add(a + b + c);
                    words.add(a + b + c + "B");
                    words.add("Ki" + a + b + c);
                }
            }
        }
        for (String w : words) {
            assertEquals(UNIT.matcher(w).matches(), Wrap.isUnit(w), w);
            assertEquals(NUMBER.matcher(w).matches(), Wrap.isNumber(w), w);
        }
    }
}
