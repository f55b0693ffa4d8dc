#!/usr/bin/env bash
# The damage probe's work on residue crafted to be slow stays linear in the residue: the budgets of RECOVERY.md 2.4
# bound it. For three residue shapes (bench/CraftResidue.java) at 128, 256 and 512 MiB, times a whole-process scan
# and prints the time per MiB and the verdict (JVM start-up, ~0.5 s, is included in every figure).
#   bench/probe-linear.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/segtool-probe.XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$here/segtool" --version >/dev/null
for shape in zeros badsum overlap; do
    for mib in 128 256 512; do
        part="$work/$shape-$mib/streams/1/topics/1/partitions/1"
        java -cp "$here/shell/target/segtool.jar" "$here/bench/CraftResidue.java" "$part" "$mib" "$shape" >/dev/null
        cat "$part"/*.log > /dev/null
        start=$(date +%s.%N)
        set +e
        "$here/segtool" scan --quiet "$part" >/dev/null
        rc=$?
        set -e
        end=$(date +%s.%N)
        counts=$( ("$here/segtool" scan --json "$part" || true) | tr -d ' \n' \
            | grep -o '"candidates_examined":[0-9]*,"budget_units":[0-9]*,"verified_bytes":[0-9]*' | head -1)
        printf '%-8s %4d MiB: %6.2f s (%.4f s/MiB) exit %d  %s\n' "$shape" "$mib" "$(echo "$end - $start" | bc)" \
            "$(echo "($end - $start) / $mib" | bc -l)" "$rc" "$counts"
        rm -rf "$work/$shape-$mib"
    done
done
