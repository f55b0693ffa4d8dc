package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.replica.ManifestJson;

/**
 * fleet/k8s/collect-job.yaml, without a cluster: the Job's container command is what segtool accepts. The test reads
 * the manifests, checks the shape a cluster relies on (a Job that never retries, the data volume mounted read-only
 * from the broker's claim, the output volume writable, the manifest reader mounting the same claim), then runs the
 * container's arguments, with {@code $(NODE)} expanded from its env and the mounts mapped onto a data directory the
 * writer made and a temporary output directory, and reads the manifest it writes.
 */
class FleetK8sTest {
    private static final Path K8S = FleetPlaybookTest.REPO.resolve("fleet/k8s");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path root;

    private static List<JsonNode> documents(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        try (YAMLParser p = new YAMLFactory().createParser(file.toFile())) {
            for (JsonNode d; p.nextToken() != null && (d = YAML.readTree(p)) != null; ) {
                out.add(d);
            }
        }
        return out;
    }

    private static JsonNode kind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + docs));
    }

    @Test
    void theCollectJobRunsACommandSegtoolAccepts_onAReadOnlyDataVolume() throws Exception {
        List<JsonNode> docs = documents(K8S.resolve("collect-job.yaml"));
        JsonNode job = kind(docs, "Job");
        assertEquals("batch/v1", job.path("apiVersion").asText());
        assertEquals(0, job.at("/spec/backoffLimit").asInt(), "a failed collect is looked at, not retried");
        JsonNode pod = job.at("/spec/template/spec");
        assertEquals("Never", pod.path("restartPolicy").asText());
        JsonNode c = pod.path("containers").get(0);
        Map<String, String> mounts = new HashMap<>();
        for (JsonNode m : c.path("volumeMounts")) {
            mounts.put(m.path("name").asText(), m.path("mountPath").asText());
            if (m.path("name").asText().equals("data")) {
                assertTrue(m.path("readOnly").asBoolean(), "the broker's volume is mounted read-only");
            }
        }
        String outClaim = null;
        for (JsonNode v : pod.path("volumes")) {
            if (v.path("name").asText().equals("data")) {
                assertTrue(v.at("/persistentVolumeClaim/readOnly").asBoolean(), "the claim is read-only too");
            } else {
                outClaim = v.at("/persistentVolumeClaim/claimName").asText();
            }
        }
        assertEquals(kind(docs, "PersistentVolumeClaim").at("/metadata/name").asText(), outClaim);
        JsonNode reader = kind(documents(K8S.resolve("manifest-reader.yaml")), "Pod");
        assertEquals(outClaim, reader.at("/spec/volumes/0/persistentVolumeClaim/claimName").asText(),
                "the reader mounts the claim the Job writes to");

        List<String> command = new ArrayList<>();
        c.path("command").forEach(x -> command.add(x.asText()));
        assertEquals("java", command.get(0));
        assertTrue(command.get(command.size() - 1).endsWith("/segtool.jar") && command.contains("-jar"), command
                + " runs the jar");
        Map<String, String> env = new HashMap<>();
        c.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));

        Path data = root.resolve("data");
        Path out = Files.createDirectories(root.resolve("out"));
        Partitions.healthy(data, "local_data");
        Path local = data.resolve("local_data");
        List<String> args = new ArrayList<>();
        for (JsonNode a : c.path("args")) {
            String v = a.asText();
            for (Map.Entry<String, String> e : env.entrySet()) {
                v = v.replace("$(" + e.getKey() + ")", e.getValue());
            }
            v = v.startsWith(mounts.get("data") + "/") ? data.resolve(v.substring(mounts.get("data").length() + 1))
                    .toString() : v;
            v = v.startsWith(mounts.get("out") + "/") ? out.resolve(v.substring(mounts.get("out").length() + 1))
                    .toString() : v;
            args.add(v);
        }
        assertEquals(local.toString(), args.get(1), "the Job collects the data directory under the mount");
        Cli.Result r = Cli.run(args.toArray());
        assertEquals(0, r.exit(), r.out() + r.err());
        Path manifest = out.resolve(env.get("NODE") + ".manifest.ndjson.gz");
        ManifestJson.NodeManifest m = ManifestJson.read(manifest);
        assertEquals(env.get("NODE"), m.node());
        assertEquals(1, m.partitions().size());
    }
}
