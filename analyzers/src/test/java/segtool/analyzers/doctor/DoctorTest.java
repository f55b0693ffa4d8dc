package segtool.analyzers.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.repair.StepHook;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * doctor over a data directory with one of each thing that needs attention: a refused partition, a fence holding
 * records that verify, a fence holding none, a finished repair's quarantine, a scratch file, and a clean partition
 * that must produce nothing.
 */
class DoctorTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");
    private static final RecoveryEngine ENGINE = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1));

    @TempDir
    Path data;

    private Path partition(int topic, String shape) throws IOException {
        Path p = data.resolve("streams/1/topics/" + topic + "/partitions/1");
        Files.createDirectories(p);
        Path from = GALLERY.resolve(shape).resolve("streams/1/topics/1/partitions/1");
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Files.copy(f, p.resolve(f.getFileName().toString()));
            }
        }
        return p;
    }

    @Test
    void everyKind_withItsFactsAndNextCommands() throws Exception {
        Path refused = partition(1, "interior-damage");
        Path fenced = partition(2, "healthy");
        Path fence0 = Files.createDirectories(SegmentFiles.fence(fenced, 0));
        Files.copy(SegmentFiles.log(GALLERY.resolve("healthy/streams/1/topics/1/partitions/1"), 0),
                SegmentFiles.log(fence0, 0));
        Path fence1 = Files.createDirectories(SegmentFiles.fence(fenced, 1));
        Files.write(SegmentFiles.log(fence1, 0), new byte[300]);
        Path repaired = partition(3, "torn-tail");
        Repairer.Outcome applied = new Repairer(ENGINE, ServerGuard.Report::idle, new Applier(StepHook.NONE, "t"),
                plan -> true).repair(PartitionPath.of(repaired), false, true, false);
        assertEquals(Repairer.Status.APPLIED, applied.status(), () -> applied.error() + " " + applied.notes());
        Path scratch = partition(4, "healthy");
        Files.write(scratch.resolve("00000000000000000000.index.staging"), new byte[24]);
        partition(5, "healthy");

        Doctor.Report r = new Doctor(ENGINE.options(), 1, Doctor.Next.plain("segtool"))
                .examine(data, Targets.resolve(data).partitions(), InputsResolver.CommandLine.none());
        assertEquals(5, r.partitions());
        assertEquals(List.of("refused_partition", "fence", "fence", "quarantine", "scratch_file"),
                r.findings().stream().map(f -> f.kind().json()).toList());
        assertEquals(2, r.exitCode());

        Finding ref = r.findings().get(0);
        assertEquals("InteriorDamage", ref.details().get("variant"));
        assertEquals(List.of("1..3"), ref.details().get("lost_offsets"));
        assertEquals(List.of("0", "4"), ref.details().get("salvageable_offsets"));
        String q = refused.toAbsolutePath().normalize().toString();
        assertEquals(List.of("segtool explain " + q, "segtool salvage " + q + " -o ./salvage-s1-t1-p1 --format ndjson",
                "segtool repair " + q), ref.next());

        Finding good = r.findings().get(1);
        assertEquals(fence0.toAbsolutePath().normalize(), good.path());
        assertEquals(3L, good.details().get("records_that_verify"));
        assertEquals(List.of("0..4"), good.details().get("offsets"));
        assertEquals(true, good.details().get("all_bytes_verify"));
        assertTrue(good.next().get(0).startsWith("segtool salvage "), good.next().toString());
        Finding empty = r.findings().get(2);
        assertEquals(0L, empty.details().get("records_that_verify"));
        assertEquals(false, empty.details().get("all_bytes_verify"));
        assertTrue(((String) empty.details().get("readmit")).startsWith("nothing to re-admit"));

        Finding quar = r.findings().get(3);
        assertEquals(applied.quarantine().toAbsolutePath().normalize(), quar.path());
        assertEquals("complete", quar.details().get("state"));
        // a finished repair: only restore's dry run, as --apply would undo the repair
        assertEquals(1, quar.next().size(), quar.next().toString());
        assertEquals(0, quar.exitCode());   // nothing pending: the refusal sets the exit
        assertTrue(quar.next().get(0).startsWith("segtool restore " + quar.path() + "   # dry run"), quar.next().get(0));

        Finding scr = r.findings().get(4);
        assertEquals("00000000000000000000.index.staging", scr.path().getFileName().toString());

        JsonNode json = DoctorJson.report(r, "t");
        assertEquals(DoctorJson.SCHEMA, json.get("schema").asText());
        assertEquals(2, json.get("counts").get("fence").asInt());
        assertEquals(315, json.at("/findings/0/details/fields/damage_position").asInt());
        assertEquals(2, json.get("exit_code").asInt());
    }

    @Test
    void cleanDataDirectory_nothingNeedsAttention() throws Exception {
        partition(1, "healthy");
        Doctor.Report r = new Doctor(ENGINE.options(), 1, Doctor.Next.plain("segtool"))
                .examine(data, Targets.resolve(data).partitions(), InputsResolver.CommandLine.none());
        assertEquals(List.of(), r.findings());
        assertEquals(0, r.exitCode());
    }
    /**
     * After "repair --apply" the partition is clean and its quarantine stays for undo: doctor lists the quarantine
     * and exits 0 (it exited 1, so a runbook's repair-then-doctor check failed until the undo was deleted). A repair
     * that stopped part way still needs attention: exit 1, with the commands that finish or undo it.
     */
    @Test
    void finishedRepair_isANoteAndExitsZero_unfinishedExitsOne() throws Exception {
        Path repaired = partition(1, "torn-tail");
        Repairer.Outcome applied = new Repairer(ENGINE, ServerGuard.Report::idle, new Applier(StepHook.NONE, "t"),
                plan -> true).repair(PartitionPath.of(repaired), false, true, false);
        assertEquals(Repairer.Status.APPLIED, applied.status(), () -> applied.error() + " " + applied.notes());
        Doctor doctor = new Doctor(ENGINE.options(), 1, Doctor.Next.plain("segtool"));
        Doctor.Report r = doctor.examine(data, Targets.resolve(data).partitions(), InputsResolver.CommandLine.none());
        assertEquals(List.of(Finding.Kind.QUARANTINE), r.findings().stream().map(Finding::kind).toList());
        assertEquals("complete", r.findings().get(0).details().get("state"));
        assertEquals(0, r.exitCode());
        JsonNode json = DoctorJson.report(r, "t");
        assertEquals(0, json.get("exit_code").asInt());
        assertEquals(0, json.at("/findings/0/exit_code").asInt());

        Path stopped = partition(2, "torn-tail");
        Repairer.Outcome crashed = new Repairer(ENGINE, ServerGuard.Report::idle, new Applier((step, action) -> {
            if (action.startsWith("truncate ")) {
                throw new IOException("killed before " + action);
            }
        }, "t"), plan -> true).repair(PartitionPath.of(stopped), false, true, false);
        assertTrue(crashed.status() != Repairer.Status.APPLIED, crashed.status().toString());
        Doctor.Report after = doctor.examine(data, Targets.resolve(data).partitions(),
                InputsResolver.CommandLine.none());
        Finding pending = after.findings().stream().filter(f -> f.partition().equals(stopped.toAbsolutePath().normalize())
                || f.partition().equals(stopped)).filter(f -> f.kind() == Finding.Kind.QUARANTINE).findFirst()
                .orElseThrow(() -> new AssertionError(after.findings().toString()));
        assertEquals("applying", pending.details().get("state"), pending.details().toString());
        assertEquals(1, pending.exitCode());
        assertEquals(1, after.exitCode());
        assertTrue(pending.next().stream().anyMatch(n -> n.startsWith("segtool repair ") && n.contains("--apply")),
                pending.next().toString());
        assertTrue(pending.next().stream().anyMatch(n -> n.startsWith("segtool restore ") && n.contains("--apply")),
                pending.next().toString());
        assertEquals(1, DoctorJson.report(after, "t").get("exit_code").asInt());
    }
    /**
     * A segment's .log that is a symlink to nothing: the server's stat finds no file (RECOVERY 7.3), so the verdict
     * is that of an empty log (the segment recovers empty and is fenced), and the sweep says why; doctor reports it
     * as a dangling symlink, not as a naming problem. Before, scan, explain and doctor showed the fence with no word
     * of the link.
     */
    @Test
    void aDanglingSymlinkLog_isNamedAsSuch() throws Exception {
        Path p = partition(1, "healthy");
        Path log = SegmentFiles.log(p, 0);
        Files.delete(log);
        Files.createSymbolicLink(log, data.resolve("gone.log"));
        segtool.analyzers.recovery.PartitionReport judged = ENGINE.judge(PartitionPath.of(p), false);
        assertEquals(List.of("00000000000000000000.log: a symlink to " + data.resolve("gone.log")
                + segtool.analyzers.recovery.Sweep.DANGLING), judged.warnings());
        assertEquals(segtool.analyzers.recovery.SegmentReport.Result.EMPTY, judged.segments().get(0).result());
        Doctor.Report r = new Doctor(ENGINE.options(), 1, Doctor.Next.plain("segtool"))
                .examine(data, Targets.resolve(data).partitions(), InputsResolver.CommandLine.none());
        assertEquals(List.of(Finding.Kind.RECOVERY_WOULD_CHANGE, Finding.Kind.DANGLING_SYMLINK),
                r.findings().stream().map(Finding::kind).toList());
        assertEquals(1, r.exitCode());
        assertEquals("dangling_symlink", DoctorJson.report(r, "t").at("/findings/1/kind").asText());

        // a link that cannot be followed (a loop) is not one to nothing: an I/O error, and no such warning
        Path looped = partition(2, "healthy");
        Path index = SegmentFiles.index(looped, 0);
        Files.delete(index);
        Files.createSymbolicLink(index, index.getFileName());
        segtool.analyzers.recovery.PartitionReport loop = ENGINE.judge(PartitionPath.of(looped), false);
        assertEquals(segtool.analyzers.recovery.PartitionReport.Outcome.IO_ERROR, loop.outcome());
        assertTrue(loop.warnings().stream().noneMatch(segtool.analyzers.recovery.Sweep::danglingLink),
                loop.warnings().toString());
    }
}
