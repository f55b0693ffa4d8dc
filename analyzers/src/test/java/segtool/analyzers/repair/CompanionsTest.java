package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.salvage.Salvager;

/**
 * Companions answers, from one listing of the parent, whether a partition may have a fence or quarantine directory
 * beside it; every partition that has one must be said to (doctor, segments and repair skip the others' own
 * listings, which made a data directory of 10,000 partitions quadratic), and a name that merely starts like one
 * must not borrow another's.
 */
class CompanionsTest {
    @TempDir
    Path parent;

    @Test
    void everyPartitionWithAFenceOrQuarantine_isSaidToMayHaveOne_andNoOther() throws Exception {
        for (String name : List.of("1", "2", "3", "12", "21", "1.fenced.1", "2.segtool-quarantine.20261202T010203Z",
                "21.fenced.x", "notes.txt")) {
            Files.createDirectories(parent.resolve(name));
        }
        Companions c = new Companions();
        assertTrue(c.mayHave(parent.resolve("1")));
        assertTrue(c.mayHave(parent.resolve("2")));
        assertTrue(c.mayHave(parent.resolve("21")), "any name with the marker counts; the callers check the rest");
        assertFalse(c.mayHave(parent.resolve("3")));
        assertFalse(c.mayHave(parent.resolve("12")), "12 is not 1, nor 2");
        assertFalse(c.mayHave(parent.resolve("missing")));
        // what the callers would list agrees wherever Companions says no
        for (String name : List.of("3", "12", "missing")) {
            assertEquals(List.of(), Salvager.fences(parent.resolve(name)), name);
            assertEquals(List.of(), Quarantine.of(parent.resolve(name)), name);
        }
        assertEquals(List.of(parent.resolve("1.fenced.1")), Salvager.fences(parent.resolve("1")));
        assertEquals(1, Quarantine.of(parent.resolve("2")).size());
    }

    @Test
    void theAnswerIsAsOfTheFirstListing_andAParentThatIsNotThereHasNone() throws Exception {
        Files.createDirectories(parent.resolve("7"));
        Companions c = new Companions();
        assertFalse(c.mayHave(parent.resolve("7")));
        Files.createDirectories(parent.resolve("7.fenced.0"));
        assertFalse(c.mayHave(parent.resolve("7")), "listed once, when first asked");
        assertTrue(new Companions().mayHave(parent.resolve("7")), "a new run lists again");
        assertFalse(new Companions().mayHave(parent.resolve("none/7")));
    }
}
