package segtool.shell;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.report.ScanJson;
import segtool.samples.SampleGenerator;
import segtool.shell.options.OutputOptions;

/** {@code sample OUT [--shape NAME]...}: write sample partitions, one per recovery outcome. */
@Command(name = "sample", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Write sample partitions built with the byte-exact writer, one per recovery outcome "
                + "(healthy, torn tail, InteriorDamage, Hole, ...) plus a small realistic data directory. Each "
                + "lands in OUT/<shape>/ with an expected.json saying what recovery does with it.",
            "Use --list to see the shapes and what recovery does with each."})
public final class SampleCommand implements Callable<Integer>, PlainCommand {
    @Parameters(index = "0", paramLabel = "OUT", arity = "0..1", description = "Directory to write the samples into.")
    Path out;

    @Option(names = "--shape", paramLabel = "NAME",
            description = "Only this shape (repeatable; see --list). Default: all.")
    List<String> shapes = new ArrayList<>();

    @Option(names = "--list", description = "List the shapes with their descriptions and exit.")
    boolean list;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** Shape names, loaded only when the command runs (building them loads the whole gallery). */
    static final class ShapeNames extends ArrayList<String> {
        ShapeNames() {
            SampleGenerator.shapes().forEach(s -> add(s.name()));
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter w = spec.commandLine().getOut();
        if (list) {
            if (output.json) {
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                o.put("schema", "segtool.shapes/1");
                ArrayNode a = o.putArray("shapes");
                SampleGenerator.shapes().forEach(s -> a.addObject().put("shape", s.name())
                        .put("description", s.description()));
                o.put("exit_code", ExitCodes.CLEAN);
                w.println(ScanJson.mapper().writeValueAsString(o));
            } else {
                SampleGenerator.shapes().forEach(s -> w.printf("%-34s %s%n", s.name(), s.description()));
            }
            w.flush();
            return ExitCodes.CLEAN;
        }
        if (out == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'OUT'");
        }
        Set<String> names = new LinkedHashSet<>(shapes);
        if (names.isEmpty()) {
            SampleGenerator.shapes().forEach(s -> names.add(s.name()));
        }
        Set<String> known = new LinkedHashSet<>(new ShapeNames());
        for (String n : names) {
            if (!known.contains(n)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown shape '" + n
                        + "'; known: " + String.join(", ", known));
            }
        }
        if (java.nio.file.Files.exists(out) && !java.nio.file.Files.isDirectory(out)) {
            // it said "<OUT>/healthy: Not a directory", naming a path below the one given
            throw new java.io.IOException(out + ": Not a directory");
        }
        SampleGenerator.generate(out, names);
        if (output.json) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("schema", "segtool.sample/1");
            o.put("out", out.toString());
            ArrayNode a = o.putArray("shapes");
            names.forEach(a::add);
            o.put("exit_code", ExitCodes.CLEAN);
            w.println(ScanJson.mapper().writeValueAsString(o));
        } else if (!output.quiet()) {
            w.printf("%d sample(s) written to %s; try: segtool scan %s%n", names.size(), out, out);
        }
        w.flush();
        return ExitCodes.CLEAN;
    }
}
