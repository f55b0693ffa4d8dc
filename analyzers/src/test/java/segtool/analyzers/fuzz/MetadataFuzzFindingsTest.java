package segtool.analyzers.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import segtool.formats.metadata.MetadataFormatException;
import segtool.formats.metadata.SnapshotReader;

/** What {@link MetadataFuzzTest} found in formats' METADATA readers, one test per finding. */
class MetadataFuzzFindingsTest {

    /**
     * A snapshot whose option kind is the string {@code "stri\n$"}: the refusal quoted the name as it stands, and the
     * line feed split the one-line error in two. Bytes quoted from a file are now written {@code \xNN}.
     */
    @Test
    void refusalQuotingAControlCharacter_staysOneLine() throws IOException {
        byte[] snapshot;
        try (InputStream in = getClass().getResourceAsStream("MetadataFuzzTestInputs/snapshot/kind-with-newline")) {
            snapshot = in.readAllBytes();
        }
        MetadataFormatException e = assertThrows(MetadataFormatException.class,
                () -> SnapshotReader.decode(Path.of("metadata/snapshot"), snapshot));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals("metadata/snapshot @ 116: option key kind \"stri\\x0a$\" is not a HeaderKind name",
                e.getMessage());
    }

    @Test
    void everyMetadataRefusal_isOneLine() {
        MetadataFormatException e = new MetadataFormatException(Path.of("journal"), 7, "a\rb\u007fc\td");
        assertEquals("journal @ 7: a\\x0db\\x7fc\\x09d", e.getMessage());
        assertTrue(e.reason().indexOf('\n') < 0);
    }
}
