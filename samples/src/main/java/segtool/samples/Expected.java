package segtool.samples;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What boot recovery decides for a sample, written by hand from RECOVERY.md and rendered as the sample's
 * {@code expected.json}. Nothing here computes a verdict: every number is a literal in the sample's definition.
 */
final class Expected {
    private Expected() {
    }

    /** Per-segment outcome; precedence when several apply: recovered_empty > truncated > index_rebuilt > clean. */
    enum Status {
        CLEAN, TRUNCATED, INDEX_REBUILT, RECOVERED_EMPTY, REFUSED, NOT_EXAMINED;

        String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One segment after recovery (or, in a refused mode, as pass A planned it). {@code indexSize} is the index
     * length in bytes after recovery. The three sizes are null for refused and not examined segments.
     */
    record Segment(long startOffset, Status status, Long endOffset, Long size, Long indexSize) {
        static Segment of(long start, Status status, long end, long size, long indexSize) {
            return new Segment(start, status, end, size, indexSize);
        }

        static Segment refused(long start) {
            return new Segment(start, Status.REFUSED, null, null, null);
        }

        static Segment notExamined(long start) {
            return new Segment(start, Status.NOT_EXAMINED, null, null, null);
        }
    }

    /** A refusal of RECOVERY.md 7.1: the variant, the segment it names, and its fields in the spec's order. */
    record Refusal(String variant, long segmentStartOffset, Map<String, Long> fields) {
        /** {@code fieldsInOrder} alternates snake_case names and values. */
        static Refusal of(String variant, long segmentStartOffset, Object... fieldsInOrder) {
            Map<String, Long> fields = new LinkedHashMap<>();
            for (int i = 0; i < fieldsInOrder.length; i += 2) {
                fields.put((String) fieldsInOrder[i], ((Number) fieldsInOrder[i + 1]).longValue());
            }
            return new Refusal(variant, segmentStartOffset, fields);
        }
    }

    /** One mode's verdict for one partition. */
    record Mode(Refusal refusal, List<Segment> segments) {
        static Mode accepted(Segment... segments) {
            return new Mode(null, List.of(segments));
        }

        static Mode refused(Refusal refusal, Segment... segments) {
            return new Mode(refusal, List.of(segments));
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("outcome", refusal == null ? "accepted" : "refused");
            if (refusal == null) {
                m.put("refusal", null);
            } else {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("variant", refusal.variant());
                r.put("segment_start_offset", refusal.segmentStartOffset());
                r.put("fields", new LinkedHashMap<>(refusal.fields()));
                m.put("refusal", r);
            }
            List<Object> segs = new ArrayList<>();
            for (Segment s : segments) {
                Map<String, Object> j = new LinkedHashMap<>();
                j.put("start_offset", s.startOffset());
                j.put("status", s.status().json());
                j.put("end_offset", s.endOffset());
                j.put("size", s.size());
                j.put("index_size", s.indexSize());
                segs.add(j);
            }
            m.put("segments", segs);
            return m;
        }
    }

    /**
     * The verdicts for one partition directory, given by its path below the sample directory, and the files the
     * boot sweep deletes from it (names relative to the partition directory, sorted).
     */
    record Partition(String path, List<String> deletedBySweep, Mode lenient, Mode durable) {
        static Partition of(String path, Mode lenient, Mode durable) {
            return new Partition(path, List.of(), lenient, durable);
        }

        static Partition bothModes(String path, Mode both) {
            return of(path, both, both);
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partition", path);
            m.put("deleted_by_sweep", new ArrayList<Object>(deletedBySweep));
            m.put("lenient", lenient.json());
            m.put("durable", durable.json());
            return m;
        }
    }

    /**
     * The whole {@code expected.json}. A sample with one partition puts its fields at the top level; a sample with
     * several lists them under {@code partitions}.
     */
    static String render(String shape, String description, List<Partition> partitions) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shape", shape);
        m.put("description", description);
        if (partitions.size() == 1) {
            m.putAll(partitions.get(0).json());
        } else {
            List<Object> all = new ArrayList<>();
            for (Partition p : partitions) {
                all.add(p.json());
            }
            m.put("partitions", all);
        }
        StringBuilder out = new StringBuilder();
        write(out, m, "");
        return out.append('\n').toString();
    }

    /** Pretty JSON with two-space indentation; a list of scalars or an empty container stays on one line. */
    private static void write(StringBuilder out, Object v, String indent) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String s) {
            out.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        } else if (v instanceof Long n) {
            out.append(Long.toUnsignedString(n));
        } else if (v instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            String inner = indent + "  ";
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(inner);
                write(out, e.getKey().toString(), inner);
                out.append(": ");
                write(out, e.getValue(), inner);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        } else if (v instanceof List<?> list) {
            boolean flat = list.stream().noneMatch(x -> x instanceof Map || x instanceof List);
            if (list.isEmpty() || flat) {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    write(out, list.get(i), indent);
                    out.append(i + 1 < list.size() ? ", " : "");
                }
                out.append(']');
                return;
            }
            String inner = indent + "  ";
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(inner);
                write(out, list.get(i), inner);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else {
            throw new IllegalArgumentException("cannot render " + v.getClass());
        }
    }
}
