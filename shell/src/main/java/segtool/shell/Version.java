package segtool.shell;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** The version stamped into the jar at build time. */
public final class Version implements CommandLine.IVersionProvider {
    private static final String VERSION = load();

    private static String load() {
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
        return VERSION;
    }

    /** The server revision segtool models: its recovery, and the metadata that feeds it. */
    public static final String MODELS = "models Apache Iggy's boot recovery of apache/iggy#3970 (persist log and "
            + "index concurrently, harden recovery) with the inputs of apache/iggy#4092 (the topic's durability "
            + "option, the WAL frontier's checkpoint); contract: FORMAT.md, RECOVERY.md, METADATA.md";

    @Override
    public String[] getVersion() {
        return new String[]{"segtool " + VERSION, MODELS,
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
