#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser, one @FuzzTest target at a time, at nice 19:
#   bench/fuzz.sh [RUNS] [TARGET...]   RUNS inputs per target (default 10000000); TARGET as Class#method
#                                      (default: every target below)
#   FUZZ_SECONDS=S bench/fuzz.sh ...   also stop each target after S seconds of fuzzing (Jazzer's
#                                      -max_total_time), for a time-boxed pass over every target
#   bench/fuzz.sh seeds                rewrite the seed corpora with the writers (SeedCorpus, DumpSeedCorpus,
#                                      MetadataSeedCorpus)
# `mvn verify` replays the committed corpora without fuzzing (Jazzer's regression mode); here JAZZER_FUZZ=1 makes
# each target fuzz for RUNS inputs. A crash, an invariant broken, a hang (an input over 10 s) or an
# OutOfMemoryError stops the target; Jazzer then writes the input beside the seeds
# (src/test/resources/.../<Class>Inputs/<method>/crash-*), where every later build replays it: fix, keep it.
# The corpus the fuzzer grows stays in <module>/.cifuzz-corpus (ignored by git) and is reused by the next run.
# Prints one line per target: inputs run, seconds, inputs per second, and the verdict.
# The targets read their input from memory; the dump reader's targets extract for real into one scratch directory
# per run under $TMPDIR, which this script points at /dev/shm (tmpfs) unless TMPDIR is set.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
if [[ -z "${TMPDIR:-}" && -d /dev/shm && -w /dev/shm ]]; then
    export TMPDIR=/dev/shm
fi
formats=(RecordFuzzTest#verify RecordFuzzTest#verifyStamped CursorFuzzTest#walk FileFormatsFuzzTest#index
         FileFormatsFuzzTest#anchor FileFormatsFuzzTest#consumerOffset PayloadFuzzTest#userHeaders
         PayloadFuzzTest#lz4)
analyzers=(DumpReaderFuzzTest#tar DumpReaderFuzzTest#tarLz4 DumpReaderFuzzTest#tarGz DumpReaderFuzzTest#lz4
           DumpReaderFuzzTest#manifest MetadataFuzzTest#snapshot MetadataFuzzTest#journal
           MetadataFuzzTest#journalBodies MetadataFuzzTest#superblock MetadataFuzzTest#frontier)

if [[ "${1:-}" == seeds ]]; then
    mvn -B -q -pl analyzers -am test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
        -Dmdep.includeScope=test || exit 1
    cp="formats/target/test-classes:formats/target/classes:analyzers/target/test-classes:analyzers/target/classes"
    cp="$cp:$(cat analyzers/target/cp.txt)"
    java -cp "$cp" segtool.formats.fuzz.SeedCorpus "$here/formats/src/test/resources/segtool/formats/fuzz" &&
    java -cp "$cp" segtool.analyzers.archive.DumpSeedCorpus \
        "$here/analyzers/src/test/resources/segtool/analyzers/archive/DumpReaderFuzzTestInputs" &&
    java -cp "$cp" segtool.analyzers.fuzz.MetadataSeedCorpus \
        "$here/analyzers/src/test/resources/segtool/analyzers/fuzz/MetadataFuzzTestInputs"
    exit $?
fi

runs="${1:-10000000}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${formats[@]}" "${analyzers[@]}")
mvn -B -q -pl analyzers -am test-compile || exit 1
log_dir="${FUZZ_LOGS:-$here/bench/out/fuzz}"
mkdir -p "$log_dir"
failed=0
for t in "${targets[@]}"; do
    module=formats
    [[ " ${analyzers[*]} " == *" $t "* ]] && module=analyzers
    log="$log_dir/${t/\#/.}.log"
    start=$(date +%s)
    JAZZER_FUZZ=1 nice -n 19 mvn -B -o -pl "$module" -am test -Dtest="$t" \
        -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.internal.arg.0=fuzz \
        -Djazzer.internal.arg.1=-runs="$runs" -Djazzer.internal.arg.2=-timeout=10 \
        ${FUZZ_SECONDS:+-Djazzer.internal.arg.3=-max_total_time=$FUZZ_SECONDS} >"$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)
    inputs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    [[ -n "$done_line" ]] && inputs=$(awk '{print $2}' <<<"$done_line")
    verdict="ok"
    if [[ $rc -ne 0 || -z "$done_line" ]]; then
        verdict="FINDING (see $log)"
        grep -qE 'OutOfMemoryError|out-of-memory' "$log" && verdict="OOM (see $log)"
        grep -qE 'timeout after|Timeout' "$log" && verdict="HANG (see $log)"
        failed=1
    fi
    fuzz_secs=""
    [[ -n "$done_line" ]] && fuzz_secs=$(sed -E 's/.* in ([0-9]+) second.*/\1/' <<<"$done_line")
    printf '%-32s %12s inputs %6s s fuzzing (%s s wall) %8s inputs/s  %s\n' "$t" "${inputs:-0}" \
        "${fuzz_secs:-?}" "$secs" "$(( ${inputs:-0} / ( ${fuzz_secs:-$secs} > 0 ? ${fuzz_secs:-$secs} : 1 ) ))" \
        "$verdict"
done
exit $failed
