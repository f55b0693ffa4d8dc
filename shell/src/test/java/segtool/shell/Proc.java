package segtool.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs segtool as its own process ({@link Main}, the jar's entry point, on the test classpath) with a chosen
 * environment: what {@link Cli} cannot set in-process, such as {@code COLUMNS} or a redirected stdout.
 */
final class Proc {
    private Proc() {
    }

    static Cli.Result run(Map<String, String> env, Object... args) throws IOException, InterruptedException {
        return java(env, List.of("-XX:+UseSerialGC"), Main.class.getName(), args);
    }

    /**
     * Runs {@code main} (a class on the test classpath) with {@code args} in a JVM of its own, started with
     * {@code -XX:TieredStopAtLevel=1 -Xshare:auto} and then {@code jvmFlags}, stdin from /dev/null.
     */
    static Cli.Result java(Map<String, String> env, List<String> jvmFlags, String main, Object... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main));
        for (Object a : args) {
            cmd.add(String.valueOf(a));
        }
        Path out = Files.createTempFile("segtool-proc", ".out");
        Path err = Files.createTempFile("segtool-proc", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().remove("COLUMNS");
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("segtool did not finish: " + cmd);
            }
            return new Cli.Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
