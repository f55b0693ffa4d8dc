package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.log.BatchHeader;
import segtool.formats.writer.PartitionWriter;
import segtool.shell.docs.Docs;

/**
 * The one exit-code precedence, seen from outside: a data directory whose partitions are clean, refused and
 * unreadable exits 3 from every verdict command; and --help, the man page and the README list the same codes.
 */
class ExitCodesTest {
    @TempDir
    static Path root;

    static Path mixed;
    static Path refusedAndClean;

    static List<PartitionWriter.SegmentLayout> fill(Path data, long id) {
        return PartitionWriter.fill(data.resolve("streams/1/topics/1/partitions/" + id), PartitionWriter.Config.of(id)
                .segmentSize(16 * 1024).messagesRequiredToSave(5), 300, 5, 40, 7);
    }

    static void refuse(List<PartitionWriter.SegmentLayout> p) throws IOException {
        Partitions.flip(p.get(0).log(), p.get(0).batch(2).position() + BatchHeader.LENGTH + 60);
    }

    @BeforeAll
    static void build() throws IOException {
        mixed = root.resolve("mixed");
        fill(mixed, 1);
        refuse(fill(mixed, 2));
        Path index = fill(mixed, 3).get(1).index();
        Files.delete(index);
        Files.createSymbolicLink(index, index);
        refusedAndClean = root.resolve("two");
        fill(refusedAndClean, 1);
        refuse(fill(refusedAndClean, 2));
    }

    @Test
    void refusedAndUnreadableInOneRun_exitsThree() {
        for (String command : new String[]{"scan", "explain"}) {
            Cli.Result r = Cli.run(command, mixed);
            assertEquals(ExitCodes.IO_ERROR, r.exit(), r::toString);
            Cli.Result json = Cli.run(command, mixed, "--json");
            assertTrue(json.out().contains("\"exit_code\" : 3"), json::toString);
            assertEquals(ExitCodes.REFUSED, Cli.run(command, refusedAndClean).exit());
        }
    }

    @Test
    void helpManAndReadme_listTheSameCodesAndPrecedence() throws IOException {
        String help = Cli.run("--help").out();
        String man = Docs.generate().get("man/segtool.1");
        String readme = Files.readString(Path.of("../README.md"), StandardCharsets.UTF_8);
        assertTrue(help.contains("When results are mixed, the most urgent code wins: 130 143 64 4 3 23 2 5 1 0.\nExit codes:\n"), help);
        assertTrue(man.contains(ExitCode.PRECEDENCE_TEXT), man);
        assertTrue(readme.contains(ExitCode.PRECEDENCE_TEXT), "README's exit-code section");
        for (Map.Entry<Integer, String> e : ExitCode.meanings().entrySet()) {
            String code = String.valueOf(e.getKey());
            assertTrue(help.replaceAll("\\s+", " ").contains(code + " " + e.getValue()), code + " in --help:\n" + help);
            assertTrue(man.contains("\\fB" + code + "\\fR\n" + e.getValue().replace("-", "\\-")), code + " in man");
            assertTrue(readme.contains("| `" + code + "` | " + e.getValue().replace("--apply", "`--apply`")
                    .replace("Ctrl-C", "Ctrl-C") + " |"), code + " in README");
        }
    }
}
