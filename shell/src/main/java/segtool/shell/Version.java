package segtool.shell;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The version stamped into the jar at build time: its manifest's {@code Implementation-Version}, which the JVM has
 * without reading the jar (the class-data archive holds the manifest), else (classes run from a directory, as in the
 * tests) the build's {@code version.properties}. Read only when asked for: picocli makes the provider while it builds
 * the model of every command, and opening the 9 MiB jar for the resource was a tenth of a tiny command's start-up.
 */
public final class Version implements CommandLine.IVersionProvider {
    private static final class Holder {
        static final String VERSION = load();
    }

    private static String load() {
        String stamped = Version.class.getPackage().getImplementationVersion();
        if (stamped != null) {
            return stamped;
        }
        try (InputStream in = Version.class.getResourceAsStream("/segtool/version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    public static String current() {
        return Holder.VERSION;
    }

    /** The server revision segtool models: its recovery, and the metadata that feeds it. */
    public static final String MODELS = "models Apache Iggy's boot recovery of apache/iggy#3970 (persist log and "
            + "index concurrently, harden recovery) with the inputs of apache/iggy#4092 (the topic's durability "
            + "option, the WAL frontier's checkpoint); contract: FORMAT.md, RECOVERY.md, METADATA.md";

    @Override
    public String[] getVersion() {
        return new String[]{"segtool " + current(), MODELS,
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
