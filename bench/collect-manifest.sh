#!/usr/bin/env bash
# Manifest size and collect time for one segment of 1 KiB messages, by messages per batch:
#   bench/collect-manifest.sh [SIZE_MIB] [MESSAGES_PER_BATCH...]      (defaults: 1024, then 1 10 100)
# Prints, per shape, the log bytes, the manifest bytes plain and gzip-compressed, their ratio to the log, and the
# wall time of `segtool collect` (cached, best of 2), plus the time of `segtool scan` over the same bytes.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
size_mib="${1:-1024}"
shift || true
shapes=("$@")
[[ ${#shapes[@]} -gt 0 ]] || shapes=(1 10 100)
work="${BENCH_DIR:-$(mktemp -d /tmp/segtool-collect-bench.XXXXXX)}"
trap '[[ -z "${BENCH_DIR:-}" ]] && rm -rf "$work"' EXIT
"$here/segtool" --version >/dev/null   # builds the jar if needed
jar="$here/shell/target/segtool.jar"

secs() {  # best wall time of two runs of "$@"
    local best="" t
    for _ in 1 2; do
        /usr/bin/time -f '%e' -o "$work/.time" "$@" >/dev/null 2>&1
        t=$(tail -1 "$work/.time")
        if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; fi
    done
    echo "$best"
}

printf '%-10s %14s %12s %9s %12s %9s %10s %10s\n' "msgs/batch" "log bytes" "manifest" "ratio" "gzip" "ratio" \
    "collect s" "scan s"
for n in "${shapes[@]}"; do
    data="$work/m$n"
    part="$data/streams/1/topics/1/partitions/1"
    rm -rf "$data"
    java -cp "$jar" segtool.formats.writer.Fill "$part" 1 $((size_mib * 1024 * 1024)) $((256 + n * (1024 + 48))) \
        "$n" >/dev/null
    log="$part/00000000000000000000.log"
    cat "$log" >/dev/null
    bytes=$(stat -c %s "$log")
    t_collect=$(secs "$here/segtool" collect "$data" -o "$work/m$n.ndjson" -q)
    "$here/segtool" collect "$data" -o "$work/m$n.ndjson.gz" -q
    t_scan=$(secs "$here/segtool" scan "$data" -q)
    plain=$(stat -c %s "$work/m$n.ndjson")
    gz=$(stat -c %s "$work/m$n.ndjson.gz")
    printf '%-10s %14s %12s %8.3f%% %12s %8.3f%% %10s %10s\n' "$n" "$bytes" "$plain" \
        "$(awk -v a="$plain" -v b="$bytes" 'BEGIN{print 100*a/b}')" "$gz" \
        "$(awk -v a="$gz" -v b="$bytes" 'BEGIN{print 100*a/b}')" "$t_collect" "$t_scan"
    rm -rf "$data"
done
