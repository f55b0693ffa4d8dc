#!/usr/bin/env bash
# Every command within a 64 MiB heap on a 4 GiB segment:
#   bench/heap64.sh [SIZE_GIB] [HEAP]     (defaults 4 and 64m)
# Writes one healthy segment of SIZE_GIB GiB with the byte-exact writer (1 MiB batches) plus a torn tail of 1,000
# bytes, so repair has a plan, then runs each command on it with -XmxHEAP (SEGTOOL_JAVA_OPTS comes after the
# launcher's own -Xmx). A command passes when it exits with a code its --help documents for this input and its output
# holds no OutOfMemoryError or stack trace. Mutating commands run as dry runs; nothing is changed. Prints exit code,
# wall time and peak RSS per command; exits 1 when any failed. The partition is kept in BENCH_DIR when set.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
gib="${1:-4}"
heap="${2:-64m}"
work="${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/segtool-heap64.XXXXXX")}"
[[ -z "${BENCH_DIR:-}" ]] && trap 'rm -rf "$work"' EXIT
"$here/segtool" --version >/dev/null || exit 1
part="$work/streams/1/topics/1/partitions/1"
log="$part/00000000000000000000.log"
if [[ ! -f "$log" ]]; then
    nice -n 19 java -cp "$here/shell/target/segtool.jar" segtool.formats.writer.Fill "$part" 1 $((gib << 30)) >&2 ||
        exit 1
    head -c 1000 /dev/urandom >>"$log"
fi
printf 'segment %s: %d bytes; heap -Xmx%s\n' "$log" "$(stat -c %s "$log")" "$heap"
failed=0
run() {   # run ALLOWED_EXITS ARGS...
    local allowed="$1"
    shift
    local out="$work/.out" secs kib rc
    SEGTOOL_JAVA_OPTS="-Xmx$heap" /usr/bin/time -f '%e %M' -o "$work/.time" nice -n 19 "$here/segtool" "$@" \
        >"$out" 2>&1
    rc=$?
    read -r secs kib < <(tail -1 "$work/.time")
    local verdict=ok
    if grep -qE 'OutOfMemoryError|Exception in thread|^\s+at [a-z]+\.' "$out"; then
        verdict="FAILED: $(grep -m1 -E 'OutOfMemoryError|Exception' "$out")"
    elif [[ " $allowed " != *" $rc "* ]]; then
        verdict="FAILED: exit $rc, expected one of $allowed: $(head -c 300 "$out" | tr '\n' ' ')"
    fi
    [[ "$verdict" == ok ]] || failed=1
    printf '%-58s exit %3d  %7s s  peak RSS %5d MiB  %s\n' "segtool $*" "$rc" "$secs" $((kib / 1024)) "$verdict"
}
mid=$(( gib * 1024 * 32 ))   # Fill writes 64 messages per 1 MiB batch: the middle offset
run "1" scan --quiet "$part"
run "1" scan --quiet --enforce-fsync=true "$part"
run "1" explain "$part"
run "0 1" segments "$part"
run "0 1" index "$log"
run "0 1" batches "$log"
run "0 1" messages --limit=5 "$log"
run "0" messages --offset=$mid --limit=5 "$log"
run "0 1" find --offset=$mid "$part"
run "0 1" hexdump "$log" $(( (gib << 30) - 4096 )) 512
run "0 1" stats "$part"
run "1" repair "$part"
run "1 2" rebuild-index "$part"
run "1" repair --json "$part"
run "1" doctor "$part"
run "0" collect "$part" -o "$work/manifest.ndjson"
# salvage copies every verifying record: SIZE_GIB more of free space in the work directory, removed at once
run "1" salvage "$part" -o "$work/salvaged"
rm -rf "$work/salvaged"
[[ -n "${PACK:-}" ]] && run "0 1" pack "$part" -o "$work/dump.tar.lz4"
exit $failed
