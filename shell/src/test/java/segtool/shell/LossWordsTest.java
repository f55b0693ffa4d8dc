package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every refusal's explanation names the offsets at stake and the ways forward in order of loss. */
class LossWordsTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    /** The parts appear in this order; line breaks and indentation from wrapping count as one space. */
    private static void inOrder(String text, String... parts) {
        String out = text.replaceAll("\\s+", " ");
        int at = -1;
        for (String p : parts) {
            int i = out.indexOf(p, at + 1);
            assertTrue(i > at, "missing or out of order: " + p + "\n" + out);
            at = i;
        }
    }

    @Test
    void explainHole_namesTheMissingOffsetsBetweenSegments() {
        Cli.Result r = Cli.run("explain", GALLERY.resolve("hole"));
        assertEquals(2, r.exit(), r.toString());
        inOrder(r.out(), "At stake:", "offsets 1..3 are missing between segment 0 and segment 4.",
                "Options, least loss first:", "1. Restore from a replica or a backup that holds offsets 1..3",
                "2. Salvage, then accept the loss", "move the segments from segment 4 on aside; 363 B and offset 4 "
                        + "leave the live partition", "3. Leave it to the server:", "recoverable_bytes = 678");
    }

    @Test
    void repairInteriorDamage_namesTheDamagedBytesAndTheCut() {
        Cli.Result r = Cli.run("repair", GALLERY.resolve("interior-damage"));
        assertEquals(2, r.exit(), r.toString());
        inOrder(r.out(), "offsets 1..3 are missing inside segment 0 (its bytes [315, 782) hold no record that "
                + "verifies).", "offsets 0, 4 are held by records that verify",
                "truncate segment 0's log at byte 315 and move every later segment aside; 830 B and offset 4 leave",
                "Lost for good: offsets 1..3.", "3. Leave it to the server: it refuses this partition at boot "
                        + "(InteriorDamage)");
    }

    @Test
    void everyGalleryRefusal_hasAtStakeAndThreeOptions() {
        for (String shape : new String[]{"interior-damage", "unverified-residue", "offset-discontinuity",
            "foreign-batch", "hole", "empty-non-tail-segment"}) {
            Cli.Result r = Cli.run("explain", GALLERY.resolve(shape));
            inOrder(r.out(), "At stake:", "1. Restore", "2. Salvage", "3. Leave it to the server");
        }
        for (String shape : new String[]{"fsynced-log-loss", "fsynced-rebuild-shortfall"}) {
            Cli.Result r = Cli.run("explain", GALLERY.resolve(shape), "--enforce-fsync");
            inOrder(r.out(), "At stake:", "at the end of segment 0 (its index names them)", "1. Restore",
                    "rebuild segment 0's index from what its log proves", "3. Leave it to the server");
        }
    }
}
