#!/usr/bin/env bash
# The damage probe's work on residue crafted to be slow stays linear in the residue: the budgets of RECOVERY.md 2.4
# bound it. Times a whole-process scan over 16, 32 and 64 MiB of crafted residue and prints time per MiB.
#   bench/probe-linear.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/segtool-probe.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$here/segtool" --version >/dev/null
for mib in 16 32 64; do
    part="$work/$mib/streams/1/topics/1/partitions/1"
    java -cp "$here/shell/target/segtool.jar" "$here/bench/CraftResidue.java" "$part" "$mib" >/dev/null
    start=$(date +%s.%N)
    set +e
    "$here/segtool" scan --quiet "$part" >/dev/null
    rc=$?
    set -e
    end=$(date +%s.%N)
    verdict=$("$here/segtool" scan --json "$part" | grep -o '"variant" : "[A-Za-z]*"' | head -1)
    printf '%3d MiB residue: %6.2f s  (%.3f s/MiB)  exit %d  %s\n' "$mib" "$(echo "$end - $start" | bc)" \
        "$(echo "($end - $start) / $mib" | bc -l)" "$rc" "$verdict"
done
