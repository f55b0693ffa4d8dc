package segtool.analyzers.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** The {@code segtool.doctor/2} report (docs/doctor-json.md). */
public final class DoctorJson {
    public static final String SCHEMA = "segtool.doctor/2";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private DoctorJson() {
    }

    public static ObjectNode report(Doctor.Report r, String version) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("schema", SCHEMA);
        o.put("segtool_version", version);
        o.put("path", r.path().toAbsolutePath().normalize().toString());
        // the command line's durability (null: none given, each topic's own from metadata/ or the default); the
        // values each partition was judged with are in its findings' details. enforce_fsync is the #3970 name.
        Boolean cli = r.cli().durable();
        if (cli == null) {
            o.putNull("durability");
        } else {
            o.put("durability", cli ? "persisted" : "replicated");
        }
        o.put("enforce_fsync", Boolean.TRUE.equals(cli));
        o.put("partitions", r.partitions());
        ObjectNode counts = o.putObject("counts");
        for (Finding.Kind k : Finding.Kind.values()) {
            counts.put(k.json(), r.findings().stream().filter(f -> f.kind() == k).count());
        }
        ArrayNode list = o.putArray("findings");
        for (Finding f : r.findings()) {
            ObjectNode x = list.addObject();
            x.put("kind", f.kind().json());
            x.put("partition", f.partition().toString());
            x.put("path", f.path().toString());
            ObjectNode d = x.putObject("details");
            for (Map.Entry<String, Object> e : f.details().entrySet()) {
                d.set(e.getKey(), value(e.getValue()));
            }
            ArrayNode next = x.putArray("next");
            f.next().forEach(next::add);
            x.put("exit_code", f.exitCode());
        }
        o.put("exit_code", r.exitCode());
        return o;
    }

    /** A detail's value: every long, however deep in maps and lists, as the unsigned number it holds. */
    private static JsonNode value(Object v) {
        if (v instanceof Long l && l < 0) {
            return JsonNodeFactory.instance.numberNode(new java.math.BigInteger(Long.toUnsignedString(l)));
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                o.set(String.valueOf(e.getKey()), value(e.getValue()));
            }
            return o;
        }
        if (v instanceof java.util.List<?> list) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            for (Object x : list) {
                a.add(value(x));
            }
            return a;
        }
        return MAPPER.valueToTree(v);
    }
}
