#!/usr/bin/env bash
# Every command that walks a data directory, on 1,000 and on 10,000 empty partition directories under one
# partitions/: the ratio of the two wall times should stay near 10 (linear). Listing each partition's parent once per
# partition (for fence and quarantine directories) or re-running the in-use check per partition made segments,
# doctor and repair quadratic (10,000: 248 s, 211 s and over 100 s, ratios near 100).
#   bench/many-partitions.sh [SMALL] [LARGE]     (defaults 1000 10000)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
small="${1:-1000}"
large="${2:-10000}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/segtool-many.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
for n in "$small" "$large"; do
    mkdir -p "$dir/d$n/streams/1/topics/1/partitions"
    (cd "$dir/d$n/streams/1/topics/1/partitions" && seq 1 "$n" | xargs mkdir)
done
"$here/segtool" --version >/dev/null
wall() {  # seconds of one run, from bash's microsecond clock
    local t0=$EPOCHREALTIME
    "$here/segtool" "$@" -qq >/dev/null 2>&1 || true
    echo "$EPOCHREALTIME - $t0" | bc -l
}
printf '%-10s %10s %10s %7s   (load %s)\n' command "$small" "$large" ratio "$(cut -d' ' -f1-3 /proc/loadavg)"
for c in scan explain segments stats doctor repair collect compare; do
    run() {  # run N: the command on the data directory of N partitions
        case "$c" in
            collect) wall "$c" "$dir/d$1" -o "$dir/m.ndjson" ;;
            compare) wall "$c" "$dir/d$1" "$dir/d$1" ;;
            *) wall "$c" "$dir/d$1" ;;
        esac
    }
    a=$(run "$small")
    b=$(run "$large")
    printf '%-10s %9.2fs %9.2fs %7.1f\n' "$c" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
