package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ITypeInfo;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Spec;
import segtool.shell.model.Models;

/**
 * The generated model ({@code segtool.shell.model.Models}) is what {@link ModelSource} writes from the annotations
 * now, and for every command it builds the model picocli's reflection builds: every attribute of the command, of its
 * usage message, of each option and positional parameter in order, of each mixin, the injected specs, and the usage
 * text. (Every other shell test runs the commands through the generated model, so its parsing is tested there.)
 */
class ModelsTest {
    @Test
    void theCommittedFileIsWhatTheAnnotationsSay() throws IOException {
        Path file = Path.of(ModelSource.FILE);
        String fresh = ModelSource.source();
        if (Boolean.getBoolean("segtool.models.write")) {
            Files.writeString(file, fresh, StandardCharsets.UTF_8);
        }
        String committed = Files.readString(file, StandardCharsets.UTF_8);
        if (!committed.equals(fresh)) {
            Path copy = Path.of("target/Models.java");
            Files.writeString(copy, fresh, StandardCharsets.UTF_8);
            fail(file + " is stale (a command's annotations changed). Write it again: mvn -pl shell -am test "
                    + "-Dtest=ModelsTest -Dsurefire.failIfNoSpecifiedTests=false -Dsegtool.models.write=true "
                    + "(the fresh copy is in shell/" + copy + ")");
        }
    }

    static Stream<String> commands() {
        List<String> names = new ArrayList<>();
        names.add("");
        for (String n : Segtool.NAMES) {
            if (Segtool.subcommand(n).getName().startsWith("segtool.")) {
                names.add(n);
            }
        }
        return names.stream();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void theGeneratedModelIsTheReflectedOne(String name) throws Exception {
        CommandLine.IFactory factory = CommandLine.defaultFactory();
        Object reflectedUser = instance(name);
        Object generatedUser = instance(name);
        CommandSpec generatedSpec = Models.of(generatedUser, factory);
        if (generatedSpec == null) {
            // left to reflection: the generated file must say so
            String source = Files.readString(Path.of(ModelSource.FILE), StandardCharsets.UTF_8);
            assertTrue(source.contains("<li>" + generatedUser.getClass().getName() + ": "), name);
            return;
        }
        CommandLine reflected = new CommandLine(reflectedUser, factory);
        CommandLine generated = new CommandLine(generatedSpec, factory);
        sameLines(name, describe(reflected.getCommandSpec()), describe(generated.getCommandSpec()));
        assertEquals(reflected.getUsageMessage(CommandLine.Help.Ansi.OFF),
                generated.getUsageMessage(CommandLine.Help.Ansi.OFF), name);
        injected(reflectedUser, reflected.getCommandSpec(), null);
        injected(generatedUser, generated.getCommandSpec(), null);
        // a second parse starts from the initial values again (the shell reuses its command lines)
        if (!name.isEmpty()) {
            for (OptionSpec o : generated.getCommandSpec().options()) {
                assertEquals(render(reflectedSpecOption(reflected, o).initialValue()), render(o.initialValue()),
                        o.longestName());
            }
        }
    }

    @Test
    void everyNonPicocliCommandIsGeneratedButFind() throws Exception {
        List<String> reflective = new ArrayList<>();
        for (String n : commands().toList()) {
            if (Models.of(instance(n), CommandLine.defaultFactory()) == null) {
                reflective.add(n);
            }
        }
        // find keeps picocli's reflection for its @ArgGroup (exactly one of --offset / --timestamp)
        assertEquals(List.of("find"), reflective);
    }

    /** Equal, or a failure showing only the lines that differ. */
    private static void sameLines(String name, String expected, String actual) {
        List<String> e = expected.lines().toList();
        List<String> a = actual.lines().toList();
        StringBuilder diff = new StringBuilder();
        for (int i = 0; i < Math.max(e.size(), a.size()); i++) {
            String x = i < e.size() ? e.get(i) : "(none)";
            String y = i < a.size() ? a.get(i) : "(none)";
            if (!x.equals(y)) {
                diff.append("\n  reflected: ").append(x).append("\n  generated: ").append(y);
            }
        }
        if (diff.length() > 0) {
            fail("the models of '" + name + "' differ:" + diff);
        }
    }

    private static OptionSpec reflectedSpecOption(CommandLine reflected, OptionSpec o) {
        return reflected.getCommandSpec().findOption(o.longestName());
    }

    private static Object instance(String name) throws Exception {
        return name.isEmpty() ? new Segtool(ShellSession.oneShot())
                : CommandLine.defaultFactory().create(Segtool.subcommand(name));
    }

    /** Each {@code @Spec} field of the user object and its mixins holds the spec picocli injects. */
    private static void injected(Object user, CommandSpec spec, CommandSpec mixee) throws Exception {
        for (Class<?> k = user.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                f.setAccessible(true);
                if (f.isAnnotationPresent(Spec.class)) {
                    boolean toMixee = f.getAnnotation(Spec.class).value() == Spec.Target.MIXEE && mixee != null;
                    assertSame(toMixee ? mixee : spec, f.get(user), f.toString());
                } else if (f.isAnnotationPresent(Mixin.class)) {
                    Object m = f.get(user);
                    assertNotNull(m, f.toString());
                    String mixinName = f.getAnnotation(Mixin.class).name().isEmpty() ? f.getName()
                            : f.getAnnotation(Mixin.class).name();
                    CommandSpec ms = spec.mixins().get(mixinName);
                    assertSame(m, ms.userObject(), f.toString());
                    injected(m, ms, spec);
                }
            }
        }
    }

    /**
     * Every attribute of the model that picocli reads when it parses, renders help or completes. (Not the type's
     * generic arguments as written: picocli reads those only for an {@code @Unmatched} field, which no command has.)
     */
    static String describe(CommandSpec s) {
        StringBuilder b = new StringBuilder();
        b.append("name=").append(s.name()).append(" aliases=").append(Arrays.toString(s.aliases()))
                .append(" qualified=").append(s.qualifiedName())
                .append(" version=").append(s.versionProvider() == null ? null : s.versionProvider().getClass())
                .append(" standardHelp=").append(s.mixinStandardHelpOptions())
                .append(" helpCommand=").append(s.helpCommand())
                .append(" exit=").append(s.exitCodeOnSuccess()).append('/').append(s.exitCodeOnUsageHelp())
                .append('/').append(s.exitCodeOnVersionHelp()).append('/').append(s.exitCodeOnInvalidInput())
                .append('/').append(s.exitCodeOnExecutionException())
                .append(" interpolate=").append(s.interpolateVariables())
                .append(" scope=").append(s.scopeType())
                .append(" unmatched=").append(s.unmatchedArgsBindings().size())
                .append(" groups=").append(s.argGroups().size())
                .append(" defaults=").append(s.defaultValueProvider())
                .append('\n');
        UsageMessageSpec u = s.usageMessage();
        b.append("usage description=").append(Arrays.toString(u.description()))
                .append(" header=").append(Arrays.toString(u.header()))
                .append(" footer=").append(Arrays.toString(u.footer()))
                .append(" customSynopsis=").append(Arrays.toString(u.customSynopsis()))
                .append(" headings=").append(u.headerHeading()).append('|').append(u.synopsisHeading()).append('|')
                .append(u.descriptionHeading()).append('|').append(u.parameterListHeading()).append('|')
                .append(u.optionListHeading()).append('|').append(u.commandListHeading()).append('|')
                .append(u.footerHeading()).append('|').append(u.exitCodeListHeading())
                .append(" exitCodes=").append(u.exitCodeList())
                .append(" sort=").append(u.sortOptions()).append(" sortSynopsis=").append(u.sortSynopsis())
                .append(" abbreviate=").append(u.abbreviateSynopsis()).append(" hidden=").append(u.hidden())
                .append(" showDefaults=").append(u.showDefaultValues()).append(" marker=")
                .append(u.requiredOptionMarker()).append(" width=").append(u.width()).append(" auto=")
                .append(u.autoWidth()).append(" atFiles=").append(u.showAtFileInUsageHelp())
                .append(" eoo=").append(u.showEndOfOptionsDelimiterInUsageHelp())
                .append(" sections=").append(u.sectionKeys())
                .append('\n');
        for (OptionSpec o : s.options()) {
            b.append("option ").append(Arrays.toString(o.names())).append(" negatable=").append(o.negatable())
                    .append(" fallback=").append(o.fallbackValue()).append(" order=").append(o.order())
                    .append(" usageHelp=").append(o.usageHelp()).append(" versionHelp=").append(o.versionHelp())
                    .append(" help=").append(o.help());
            arg(b, o);
        }
        for (PositionalParamSpec p : s.positionalParameters()) {
            b.append("positional index=").append(p.index()).append(" unspecifiedIndex=")
                    .append(p.index().isUnspecified());
            arg(b, p);
        }
        for (Map.Entry<String, CommandSpec> m : s.mixins().entrySet()) {
            b.append("mixin ").append(m.getKey()).append(" of ").append(m.getValue().userObject().getClass())
                    .append(":\n").append(describe(m.getValue()));
        }
        return b.toString();
    }

    private static void arg(StringBuilder b, ArgSpec a) {
        ITypeInfo t = a.typeInfo();
        b.append(" arity=").append(a.arity()).append(" unspecifiedArity=").append(a.arity().isUnspecified())
                .append(" label=").append(a.paramLabel()).append(" hideSyntax=").append(a.hideParamSyntax())
                .append(" type=").append(a.type()).append(" aux=").append(Arrays.toString(a.auxiliaryTypes()))
                .append(" converters=").append(classes(a.converters()))
                .append(" description=").append(Arrays.toString(a.description()))
                .append(" descriptionKey=").append(a.descriptionKey())
                .append(" default=").append(a.defaultValue())
                .append(" initial=").append(render(a.initialValue())).append(" hasInitial=")
                .append(a.hasInitialValue())
                .append(" required=").append(a.required()).append(" hidden=").append(a.hidden())
                .append(" interactive=").append(a.interactive())
                .append(" split=").append(a.splitRegex()).append('|').append(a.splitRegexSynopsisLabel())
                .append(" showDefault=").append(a.showDefaultValue())
                .append(" candidates=").append(a.completionCandidates() == null ? null
                        : String.join(",", a.completionCandidates()))
                .append(" mapFallback=").append(a.mapFallbackValue())
                .append(" scope=").append(a.scopeType()).append(" inherited=").append(a.inherited())
                .append(" toString=").append(a)
                .append(" consumer=").append(a.parameterConsumer())
                .append(" preprocessor=").append(a.preprocessor())
                .append(" typeInfo=").append(t.getClassName()).append('/').append(t.isBoolean()).append('/')
                .append(t.isMultiValue()).append('/').append(t.isArray()).append('/').append(t.isCollection())
                .append('/').append(t.isMap()).append('/').append(t.isOptional()).append('/').append(t.isEnum())
                .append('/').append(t.getEnumConstantNames())
                .append('/').append(Arrays.toString(t.getAuxiliaryTypes()))
                .append('\n');
    }

    private static String classes(Object[] objects) {
        List<String> names = new ArrayList<>();
        for (Object o : objects) {
            names.add(o == null ? "null" : o.getClass().getName());
        }
        return names.toString();
    }

    private static String render(Object value) {
        if (value instanceof boolean[] z) {
            return Arrays.toString(z);
        }
        if (value instanceof Object[] arr) {
            return Arrays.deepToString(arr);
        }
        return String.valueOf(value);
    }
}
