package segtool.samples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the gallery of damaged partitions: for each shape, {@code <out>/<shape>/streams/1/topics/1/partitions/1/}
 * (the partition id comes from the path) and {@code <out>/<shape>/expected.json}, the hand-written verdict of boot
 * recovery in lenient and durable mode. Output is deterministic: fixed ids, payloads, seeds and timestamps, so
 * regenerating gives identical bytes. The checked-in copy is {@code samples/gallery/}.
 */
public final class SampleGenerator {
    /** The file beside each shape's partition directories that holds its expected verdicts. */
    public static final String EXPECTED_JSON = "expected.json";

    /** One shape: its directory name and a one-line description of what recovery does with it. */
    public record Shape(String name, String description) {
    }

    private SampleGenerator() {
    }

    /** Every shape, in gallery order. */
    public static List<Shape> shapes() {
        List<Shape> out = new ArrayList<>();
        for (Gallery.Sample s : Gallery.all()) {
            out.add(new Shape(s.name(), s.description()));
        }
        return List.copyOf(out);
    }

    /**
     * Writes the named shapes below {@code out}, replacing any earlier copy of each shape's directory.
     *
     * @throws IllegalArgumentException if a name is not one of {@link #shapes()}; nothing is written then
     */
    public static void generate(Path out, Set<String> shapes) throws IOException {
        List<Gallery.Sample> chosen = new ArrayList<>();
        for (Gallery.Sample s : Gallery.all()) {
            if (shapes.contains(s.name())) {
                chosen.add(s);
            }
        }
        if (chosen.size() != shapes.size()) {
            Set<String> unknown = new LinkedHashSet<>(shapes);
            chosen.forEach(s -> unknown.remove(s.name()));
            throw new IllegalArgumentException("unknown shape(s) " + unknown + "; known: " + names());
        }
        for (Gallery.Sample s : chosen) {
            Path dir = out.resolve(s.name());
            deleteTree(dir);
            Files.createDirectories(dir);
            s.builder().build(dir);
            Files.writeString(dir.resolve(EXPECTED_JSON), s.expectedJson(), StandardCharsets.UTF_8);
        }
    }

    /** Writes every shape below {@code out}. */
    public static void generateAll(Path out) throws IOException {
        generate(out, new LinkedHashSet<>(names()));
    }

    /** {@code OUT [--shape NAME]...}: writes the named shapes (all when none is named) below OUT. */
    public static void main(String[] args) throws IOException {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        Path target = null;
        Set<String> chosen = new LinkedHashSet<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                usage(out);
                return 0;
            } else if (a.equals("--shape") && i + 1 < args.length) {
                chosen.add(args[++i]);
            } else if (a.startsWith("--shape=")) {
                chosen.add(a.substring("--shape=".length()));
            } else if (!a.startsWith("-") && target == null) {
                target = Path.of(a);
            } else {
                err.println("samples: unexpected argument '" + a + "'");
                usage(err);
                return 2;
            }
        }
        if (target == null) {
            err.println("samples: missing OUT directory");
            usage(err);
            return 2;
        }
        if (chosen.isEmpty()) {
            chosen.addAll(names());
        }
        try {
            generate(target, chosen);
        } catch (IllegalArgumentException e) {
            err.println("samples: " + e.getMessage());
            return 2;
        }
        out.println("wrote " + chosen.size() + " shape(s) to " + target);
        return 0;
    }

    private static void usage(PrintStream to) {
        to.println("usage: SampleGenerator OUT [--shape NAME]...");
        to.println("Writes damaged sample partitions and their expected.json below OUT (all shapes by default).");
        to.println("Exit status: 0 written, 2 bad arguments. Shapes:");
        for (Shape s : shapes()) {
            to.println("  " + s.name());
        }
    }

    private static List<String> names() {
        return shapes().stream().map(Shape::name).toList();
    }

    /** Deletes {@code dir} and everything below it; nothing happens when it does not exist. */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
