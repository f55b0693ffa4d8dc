package segtool.analyzers.salvage;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import segtool.analyzers.salvage.OffsetRanges.Range;

/**
 * The {@code segtool.salvage/1} summary ({@code salvage.json}, and {@code salvage --json}); see docs/salvage.md. Its
 * last key is {@code exit_code}, the exit code of the salvage that wrote it ({@link #exitCode}).
 */
public final class SalvageJson {
    private SalvageJson() {
    }

    /** salvage's exit code: 0 when the archive holds every offset the partition promised, else 1. */
    public static int exitCode(Salvager.Result r) {
        return r.complete() ? segtool.analyzers.exit.ExitCode.CLEAN : segtool.analyzers.exit.ExitCode.CHANGES;
    }

    /** Writes the summary object; {@code archive} is where it lives (null for a report of a survey). */
    public static void summary(JsonGenerator g, Salvager.Result r, Path archive, List<String> problems,
                               boolean messages, String version, String created) throws IOException {
        g.writeStartObject();
        g.writeStringField("schema", Salvager.SCHEMA);
        g.writeStringField("segtool_version", version);
        g.writeStringField("created", created);
        if (archive == null) {
            g.writeNullField("archive");
        } else {
            g.writeStringField("archive", archive.toString());
        }
        g.writeObjectFieldStart("partition");
        g.writeStringField("directory", r.partition().directory().toAbsolutePath().normalize().toString());
        id(g, "stream_id", r.partition().hasStreamId(), r.partition().streamId());
        id(g, "topic_id", r.partition().hasTopicId(), r.partition().topicId());
        id(g, "partition_id", r.partition().hasPartitionId(), r.partition().partitionId());
        g.writeEndObject();
        g.writeObjectFieldStart("layout");
        g.writeStringField(Salvager.BATCHES_LOG, "each exported batch record's original bytes, back to back "
                + "(a log segtool can walk); archive.position in batches.ndjson says where each starts");
        g.writeStringField(Salvager.BATCHES_NDJSON, "one JSON line per exported record: provenance, header fields, "
                + "checksums, location (chain, past_damage, fenced, quarantine), verified");
        if (messages) {
            g.writeStringField(Salvager.MESSAGES_NDJSON, "one JSON line per message for replay: id, offset, "
                    + "timestamp, typed user headers, payload (LZ4 decoded; utf8 or base64), verified");
        }
        g.writeStringField(Salvager.SUMMARY, "this summary, written last");
        g.writeEndObject();
        g.writeBooleanField("complete", r.complete());
        g.writeNumberField("batches", r.batches());
        g.writeNumberField("messages", r.messages());
        Salvager.u64(g, "bytes", r.bytes());
        if (r.hasSpan()) {
            g.writeObjectFieldStart("span");
            Salvager.u64(g, "first", r.spanFirst());
            Salvager.u64(g, "last", r.spanLast());
            g.writeEndObject();
        } else {
            g.writeNullField("span");
        }
        ranges(g, "archived_offsets", r.archived().list());
        ranges(g, "unverified_offsets", r.unverified().list());
        ranges(g, "lost_offsets", r.lost());
        g.writeArrayFieldStart("sources");
        for (Salvager.SourceResult s : r.sources()) {
            g.writeStartObject();
            g.writeStringField("kind", s.source().kind().json());
            g.writeStringField("file", s.source().origin().toString());
            if (s.source().kind() == Source.Kind.QUARANTINE) {
                g.writeStringField("copy", s.source().file().toString());
            }
            if (s.source().fenceNumber() >= 0) {
                g.writeNumberField("fence", s.source().fenceNumber());
            }
            Salvager.u64(g, "start_offset", s.source().start());
            Salvager.u64(g, "base", s.source().base());
            Salvager.u64(g, "bytes", s.bytes());
            g.writeNumberField("verified_batches", s.batches());
            g.writeNumberField("unverified_batches", s.unverified());
            g.writeNumberField("messages", s.messages());
            ranges(g, "offsets", s.offsets().list());
            bytes(g, "lost_bytes", s.lost());
            bytes(g, "unexamined_bytes", s.unexamined());
            g.writeObjectFieldStart("work");
            g.writeNumberField("candidates", s.stats().candidates());
            g.writeNumberField("verifications", s.stats().verifications());
            Salvager.u64(g, "failed_verify_bytes", s.stats().failedVerifyBytes());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("problems");
        for (String p : problems) {
            g.writeString(p);
        }
        g.writeEndArray();
        g.writeNumberField("exit_code", exitCode(r));
        g.writeEndObject();
    }

    static void ranges(JsonGenerator g, String name, List<Range> ranges) throws IOException {
        g.writeArrayFieldStart(name);
        for (Range r : ranges) {
            g.writeStartObject();
            Salvager.u64(g, "first", r.first());
            Salvager.u64(g, "last", r.last());
            Salvager.u64(g, "count", r.count());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void bytes(JsonGenerator g, String name, List<Salvager.ByteRange> ranges) throws IOException {
        g.writeArrayFieldStart(name);
        for (Salvager.ByteRange b : ranges) {
            g.writeStartObject();
            Salvager.u64(g, "from", b.from());
            Salvager.u64(g, "to", b.to());
            Salvager.u64(g, "length", b.length());
            g.writeStringField("why", b.why());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** A u64 id, or null when it is not known. */
    private static void id(JsonGenerator g, String name, boolean known, long v) throws IOException {
        if (!known) {
            g.writeNullField(name);
        } else if (v >= 0) {
            g.writeNumberField(name, v);
        } else {
            g.writeNumberField(name, new java.math.BigInteger(Long.toUnsignedString(v)));
        }
    }
}
