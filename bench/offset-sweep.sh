#!/usr/bin/env bash
# read(2) throughput into a direct buffer at offsets 0, 16, 32, 64, 512 and 2048 from a page boundary, over a
# cached 1 GiB file, for windows of 64 KiB, 1 MiB and 4 MiB: why formats.io.DirectBuffers aligns every window.
#   bench/offset-sweep.sh [FILE]      (default: a 1 GiB file of random bytes, made and removed here)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
. "$here/bench/lib.sh"
file="${1:-}"
if [[ -z "$file" ]]; then
    file="$(mktemp "${TMPDIR:-/tmp}/segtool-offsets.XXXXXX")"
    trap 'rm -f "$file"' EXIT
    head -c $((1 << 30)) /dev/urandom >"$file"
fi
cat "$file" >/dev/null
echo "offset sweep over $file ($(stat -c %s "$file") bytes); load average before: $(load)"
for w in 65536 1048576 4194304; do
    java "$here/bench/OffsetSweep.java" "$file" "$w" 5
done
echo "load average after: $(load)"
