#!/usr/bin/env bash
# Whole-process `segtool scan` (byte-0 verification) with read windows from 32 KiB to 4 MiB (-Dsegtool.window), on
# one and on two threads, over a cached 1 GiB segment of large messages and one of 17-byte messages:
#   bench/window-sweep.sh [RUNS]       (default 3)
# Prints min/median wall and min CPU per window size, and the load average. BENCH_DIR keeps the segments.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
. "$here/bench/lib.sh"
runs="${1:-3}"
work="${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/segtool-windows.XXXXXX")}"
[[ -z "${BENCH_DIR:-}" ]] && trap 'rm -rf "$work"' EXIT
"$here/segtool" --version >/dev/null
jar="$here/shell/target/segtool.jar"
for name in big small; do
    p="$work/$name/streams/1/topics/1/partitions/1"
    if [[ ! -f "$p/00000000000000000000.log" ]]; then
        if [[ $name == big ]]; then extra=(); else extra=(65256 1000); fi
        nice java -cp "$jar" segtool.formats.writer.Fill "$p" 1 $((1 << 30)) "${extra[@]}" >/dev/null
    fi
    cat "$p/00000000000000000000.log" >/dev/null
done
echo "window sweep, $runs runs each; load average before: $(load)"
for name in big small; do
    p="$work/$name/streams/1/topics/1/partitions/1"
    echo "segment $name ($(stat -c %s "$p/00000000000000000000.log") bytes)"
    for w in 32768 65536 131072 262144 524288 1048576 2097152 4194304; do
        for t in 1 2; do
            SEGTOOL_JAVA_OPTS="-Dsegtool.window=$w -Dsegtool.threads=$t ${SEGTOOL_JAVA_OPTS:-}" \
                timed "$runs" r "$here/segtool" scan --quiet --durability=replicated "$p"
            row "window $((w / 1024)) KiB, $t thread(s)" r "$(stat -c %s "$p/00000000000000000000.log")"
        done
    done
done
echo "load average after: $(load)"
