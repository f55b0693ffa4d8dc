#!/usr/bin/env bash
# Peak resident memory of judging one large healthy segment made by the writer, in both modes:
#   bench/rss.sh [SIZE_GIB]      (default 1; the issue's figures are for 1 and 4)
# Prints the segment size, wall time and peak RSS (GNU time's %M) of whole-process `segtool scan` runs.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
gib="${1:-1}"
work="${BENCH_DIR:-$(mktemp -d /tmp/segtool-rss.XXXXXX)}"
trap '[[ -z "${BENCH_DIR:-}" ]] && rm -rf "$work"' EXIT
"$here/segtool" --version >/dev/null
part="$work/streams/1/topics/1/partitions/1"
if [[ ! -f "$part/00000000000000000000.log" ]]; then
    java -cp "$here/shell/target/segtool.jar" segtool.formats.writer.Fill "$part" 1 $((gib << 30)) >&2
fi
size=$(stat -c %s "$part/00000000000000000000.log")
for mode in false true; do
    /usr/bin/time -f '%e %M' -o "$work/.time" "$here/segtool" scan --quiet --enforce-fsync=$mode "$part" \
        >/dev/null 2>&1 || true
    out=$(tail -1 "$work/.time")
    read -r secs kib <<<"$out"
    printf 'segment %d bytes, enforce_fsync=%s: %s s, peak RSS %d MiB\n' "$size" "$mode" "$secs" $((kib / 1024))
done
