#!/usr/bin/env bash
# Long mode of the differential test (analyzers/.../recovery/DifferentialTest): the engine against the literal
# reference of RECOVERY.md over CASES random damaged partitions (and CASES/5 saturating-u64 ones), both durability
# modes, repair-then-rescan included. Prints the count, the seed range, the time and the disagreements.
#   bench/diff-long.sh [CASES (default 1000000)] [FIRST_SEED (default 20261201)]
# Runs at the lowest priority; the output of the run is kept in $LOG (default /tmp/segtool-diff-long.log).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cases="${1:-1000000}"
seed="${2:-20261201}"
log="${LOG:-/tmp/segtool-diff-long.log}"
cd "$here"
start=$(date +%s)
set +e
nice -n 19 mvn -B -q -pl analyzers -am test -Dtest=DifferentialTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dsegtool.diff.cases="$cases" -Dsegtool.diff.seed="$seed" >"$log" 2>&1
rc=$?
set -e
end=$(date +%s)
grep -a '^differential\|differential [a-z0-9]*: [0-9]* cases' "$log" | sed 's/^\[0m\[0m//' | tail -4
printf 'diff-long: %s cases from seed %s, %d s wall, exit %d (log: %s)\n' "$cases" "$seed" $((end - start)) "$rc" "$log"
exit "$rc"
