#!/usr/bin/env bash
# Times a whole-process `segtool scan` (lenient mode: every batch verified from byte 0) against `xxhsum -H3` and
# `cat > /dev/null` over the same cached 1 GiB segment, and prints the ratios. Also prints segtool's peak RSS.
#   bench/scan-vs-xxhsum.sh [SIZE_MIB] [RUNS]
# Needs xxhsum (Debian package xxhash); installs it with apt-get when run as root and it is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
size_mib="${1:-1024}"
runs="${2:-5}"
work="${BENCH_DIR:-$(mktemp -d /tmp/segtool-bench.XXXXXX)}"
trap '[[ -z "${BENCH_DIR:-}" ]] && rm -rf "$work"' EXIT

if ! command -v xxhsum >/dev/null; then
    if [[ $(id -u) == 0 ]]; then apt-get install -y -q xxhash >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q xxhash >/dev/null); fi
    command -v xxhsum >/dev/null || { echo "bench: xxhsum not found (apt-get install xxhash)" >&2; exit 1; }
fi

"$here/segtool" --version >/dev/null   # builds the jar if needed
part="$work/streams/1/topics/1/partitions/1"
if [[ ! -f "$part/00000000000000000000.log" ]]; then
    java -cp "$here/shell/target/segtool.jar" segtool.formats.writer.Fill "$part" 1 $((size_mib * 1024 * 1024)) >&2
fi
log="$part/00000000000000000000.log"
cat "$log" > /dev/null   # cache it

best() {  # best wall time of $runs runs of "$@", in seconds
    local best="" t
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f '%e %M' -o "$work/.time" "$@" >/dev/null 2>&1 || true
        t=$(tail -1 "$work/.time")
        read -r secs rss <<<"$t"
        if [[ -z "$best" ]] || awk -v a="$secs" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$secs; best_rss=$rss; fi
    done
    echo "$best $best_rss"
}

read -r t_cat _ <<<"$(best cat "$log")"
read -r t_xxh _ <<<"$(best xxhsum -H3 "$log")"
read -r t_scan rss_scan <<<"$(best "$here/segtool" scan --quiet --enforce-fsync=false "$part")"
read -r t_scan1 _ <<<"$(SEGTOOL_JAVA_OPTS=-Dsegtool.threads=1 best "$here/segtool" scan --quiet --enforce-fsync=false "$part")"
bytes=$(stat -c %s "$log")
printf 'segment: %s bytes (%s MiB), best of %s runs, cached\n' "$bytes" "$size_mib" "$runs"
printf '%-28s %8s s  %7.2f GB/s\n' "cat > /dev/null" "$t_cat" "$(awk -v b="$bytes" -v t="$t_cat" 'BEGIN{print b/t/1e9}')"
printf '%-28s %8s s  %7.2f GB/s\n' "xxhsum -H3" "$t_xxh" "$(awk -v b="$bytes" -v t="$t_xxh" 'BEGIN{print b/t/1e9}')"
printf '%-28s %8s s  %7.2f GB/s  peak RSS %d MiB\n' "segtool scan (all cores)" "$t_scan" "$(awk -v b="$bytes" -v t="$t_scan" 'BEGIN{print b/t/1e9}')" $((rss_scan / 1024))
printf '%-28s %8s s  %7.2f GB/s\n' "segtool scan (1 thread)" "$t_scan1" "$(awk -v b="$bytes" -v t="$t_scan1" 'BEGIN{print b/t/1e9}')"
printf 'ratio scan / xxhsum -H3:      %.2f (target <= 2)\n' "$(awk -v a="$t_scan" -v b="$t_xxh" 'BEGIN{print a/b}')"
printf 'ratio scan / cat:             %.2f\n' "$(awk -v a="$t_scan" -v b="$t_cat" 'BEGIN{print a/b}')"
printf 'ratio 1-thread / all cores:   %.2f\n' "$(awk -v a="$t_scan1" -v b="$t_scan" 'BEGIN{print a/b}')"
