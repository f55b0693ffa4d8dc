package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's JIT flags for a large run, as the real {@code segtool} script picks them, keep stdout for segtool:
 * a {@code -XX:CompileCommand} makes the JVM print a line on stdout unless {@code CompileCommand=quiet} comes first,
 * which would put text ahead of {@code --json}. The script runs from a scratch copy of the checkout's layout (an
 * empty jar, so nothing is built), only far enough to print its choice ({@code SEGTOOL_WHICH_JAVA}); the flags it
 * prints then run segtool from the test classpath.
 */
class LauncherFlagsTest {
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path root;

    private static String run(List<String> cmd, Path home, Path out) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
        pb.environment().remove("SEGTOOL_JAVA_OPTS");
        pb.environment().put("SEGTOOL_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process p = pb.start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in 3 minutes: " + cmd);
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The launcher in a scratch copy of the checkout's layout, with an empty jar that it takes as built. */
    private Path launcher() throws Exception {
        Path checkout = Files.createDirectories(root.resolve("checkout"));
        Files.copy(REPO.resolve("segtool"), checkout.resolve("segtool"));
        Files.write(Files.createDirectories(checkout.resolve("shell/target")).resolve("segtool.jar"), new byte[0]);
        return checkout.resolve("segtool");
    }

    @Test
    void aLargeRunsFlagsPrintNothingBeforeTheJson() throws Exception {
        Path launcher = launcher();
        // 64 MiB of .log (sparse, zeros): large to the launcher, quick to judge (no header at 0)
        Path partition = Files.createDirectories(root.resolve("data/streams/1/topics/1/partitions/1"));
        try (RandomAccessFile f = new RandomAccessFile(partition.resolve("00000000000000000000.log").toFile(), "rw")) {
            f.setLength(64L << 20);
        }
        Path home = Files.createDirectories(root.resolve("home"));

        List<String> which = List.of("bash", launcher.toString(), "scan", "--json",
                partition.toString());
        String[] choice = run(withEnv(which), home, root.resolve("which.out")).split("\n");
        assertEquals(3, choice.length, String.join("\n", choice));
        List<String> flags = Arrays.asList(choice[2].trim().split(" "));
        assertTrue(flags.contains("-XX:Tier4InvocationThreshold=50000"), "not a large run: " + flags);
        int quiet = flags.indexOf("-XX:CompileCommand=quiet");
        for (int i = 0; i < flags.size(); i++) {
            if (flags.get(i).startsWith("-XX:CompileCommand=") && i != quiet) {
                assertTrue(quiet >= 0 && quiet < i, "CompileCommand=quiet must come before " + flags.get(i));
            }
        }

        List<String> cmd = new ArrayList<>();
        cmd.add(choice[0].trim());
        cmd.addAll(flags);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "scan", "--json",
                partition.toString()));
        String out = run(cmd, home, root.resolve("scan.out"));
        assertTrue(out.startsWith("{"), "stdout does not start with the JSON report: " + out.lines().findFirst());
        JsonNode report = new ObjectMapper().readTree(out);
        assertEquals("segtool.scan/4", report.path("schema").asText(), out);
        assertEquals(1, report.path("partitions").size(), out);
    }

    /** The newest installed JDK of version 24 or later (whose JVM warns about native access), or null. */
    private static Path newerJdk() throws Exception {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        Path best = null;
        int bestVersion = 0;
        try (java.util.stream.Stream<Path> s = Files.list(jvms)) {
            for (Path home : s.toList()) {
                Path release = home.resolve("release");
                Path binary = home.resolve("bin/java");
                if (!Files.isRegularFile(release) || !Files.isExecutable(binary)) {
                    continue;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)")
                        .matcher(Files.readString(release));
                if (m.find() && Integer.parseInt(m.group(1)) >= 24 && Integer.parseInt(m.group(1)) > bestVersion) {
                    bestVersion = Integer.parseInt(m.group(1));
                    best = binary;
                }
            }
        }
        return best;
    }

    /**
     * On a JDK that warns about native access (24 on), the shell's JLine loads its native library: the launcher's
     * flags for that JDK enable native access, so nothing but segtool's own lines reaches stderr.
     */
    @Test
    void onANewerJdkTheShellPrintsNoJvmWarnings() throws Exception {
        Path jdk = newerJdk();
        org.junit.jupiter.api.Assumptions.assumeTrue(jdk != null, "no JDK 24 or later in /usr/lib/jvm");
        Path launcher = launcher();
        Path home = Files.createDirectories(root.resolve("home"));
        List<String> which = new ArrayList<>(List.of("env", "SEGTOOL_WHICH_JAVA=1", "SEGTOOL_JAVA=" + jdk, "bash",
                launcher.toString(), "shell"));
        String[] choice = run(which, home, root.resolve("which.out")).split("\n");
        assertEquals(jdk.toRealPath().toString(), choice[0].trim(), String.join("\n", choice));
        // the segtool jar loads JLine's native library through System.load, which warns unless this is given
        assertTrue(Arrays.asList(choice[2].trim().split(" ")).contains("--enable-native-access=ALL-UNNAMED"),
                choice[2]);
        List<String> cmd = new ArrayList<>();
        cmd.add(choice[0].trim());
        cmd.addAll(Arrays.asList(choice[2].trim().split(" ")));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "shell"));
        Path script = Files.writeString(root.resolve("script"), "segments " + REPO.resolve("samples/gallery/healthy")
                + "\n");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(script.toFile())
                .redirectOutput(root.resolve("shell.out").toFile()).redirectError(root.resolve("shell.err").toFile());
        pb.environment().put("HOME", home.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the shell did not end at the end of its input");
        String err = Files.readString(root.resolve("shell.err"), StandardCharsets.UTF_8);
        String out = Files.readString(root.resolve("shell.out"), StandardCharsets.UTF_8);
        assertTrue(out.contains("(partition 1): 1 segment(s)"), "the shell did not list the segments:\n" + out + err);
        assertFalse(err.contains("WARNING"), err);
    }

    private static List<String> withEnv(List<String> cmd) {
        List<String> c = new ArrayList<>(List.of("env", "SEGTOOL_WHICH_JAVA=1"));
        c.addAll(cmd);
        return c;
    }
}
