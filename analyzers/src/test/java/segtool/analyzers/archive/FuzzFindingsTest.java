package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.core.JsonParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link DumpReaderFuzzTest} found in the archive package, one test per finding. */
class FuzzFindingsTest {

    /**
     * A manifest may lack {@code root}, {@code source} and {@code created} (only {@code format} and {@code files} are
     * required), and a skipped entry its path or reason. Writing such a manifest used to emit JSON nulls, which the
     * reader refuses ("expected VALUE_STRING, found VALUE_NULL"): the absent fields are now left out.
     */
    @Test
    void manifestWithoutOptionalFields_writesBackToTheSameManifest() throws IOException {
        String text = "{\"format\":\"segtool-dump/1\",\"files\":[],\"skipped\":[{\"path\":\"1/x\"}]}";
        Manifest m = Manifest.readFrom(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        assertNull(m.root());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.writeTo(out);
        String written = out.toString(StandardCharsets.UTF_8);
        assertFalse(written.contains("null"), written);
        assertEquals(m, Manifest.readFrom(new ByteArrayInputStream(out.toByteArray())));
    }

    /**
     * Eight zero bytes in front of the JSON made Jackson read it as UTF-32 and throw a CharConversionException, an
     * IOException that is not a parse error, so the dump reader called the whole tar "truncated or corrupt". It is
     * a manifest that does not parse (INVALID_MANIFEST), like any other.
     */
    @Test
    void manifestThatLooksLikeUtf32_isAParseError() {
        byte[] bytes = utf32Lookalike();
        JsonParseException e = assertThrows(JsonParseException.class,
                () -> Manifest.readFrom(new ByteArrayInputStream(bytes)));
        assertTrue(e.getOriginalMessage().startsWith("manifest is not UTF-8 JSON"), e.getOriginalMessage());
    }

    @Test
    void dumpWhoseManifestLooksLikeUtf32_opensWithAnInvalidManifest(@TempDir Path dir) throws IOException {
        Path archive = Files.write(dir.resolve("d.tar"), new Fixtures.TarBuilder().file(Manifest.NAME, utf32Lookalike())
                .dir("1").file("1/a", "x").bytes());
        Path parent = Files.createDirectories(dir.resolve("x"));
        try (OpenedDump d = DumpReader.open(archive, Limits.DEFAULT, parent)) {
            ManifestStatus.Mismatch m = assertInstanceOf(ManifestStatus.Mismatch.class, d.manifestStatus());
            assertEquals(ManifestProblem.Kind.INVALID_MANIFEST, m.problems().get(0).kind());
        }
    }

    /** The fuzzer's input: eight zero bytes, then the tail of a manifest. */
    private static byte[] utf32Lookalike() {
        byte[] text = "\":\"segtool-dump/1\",\"files\":[]}".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[8 + text.length];
        System.arraycopy(text, 0, bytes, 8, text.length);
        return bytes;
    }
}
