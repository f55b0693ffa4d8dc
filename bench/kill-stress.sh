#!/usr/bin/env bash
# Randomised kill -9 of repair --apply, rebuild-index --apply, restore --apply, repair --accept-loss --apply and
# apply --plan --apply (KillStressTest) at scale:
#   bench/kill-stress.sh [TRIALS] [MIB] [SEED]    defaults: 2000 trials, 256 MiB partitions, seed 0x5E970016
# Each trial copies a damaged four-segment partition of MIB MiB of log (for apply --plan the replica and its
# donor), SIGKILLs the command in a child JVM right after a random mutation step or at a random moment of its run,
# checks that the partition and its quarantines hold every original byte, re-runs the command and checks it leaves
# exactly what an uninterrupted run leaves. The suite runs 20 trials of 256 KiB; this is the long form. Prints the
# test's summary line (trials, seed, how many were killed mid-run, how many finished first) and every trial with -v
# as a fourth argument. Runs at nice 19 and needs about 6 x MIB of free space in TMPDIR.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
trials="${1:-2000}"
mib="${2:-256}"
seed="${3:-1586954262}"
verbose=false
[[ "${4:-}" == -v ]] && verbose=true
cd "$here"
log="${TMPDIR:-/tmp}/segtool-kill-stress-$seed.log"
if ! nice -n 19 mvn -B -pl analyzers -am test -Dtest=KillStressTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Dkillstress.trials="$trials" -Dkillstress.bytes=$((mib << 20)) -Dkillstress.seed="$seed" \
        -Dkillstress.verbose="$verbose" >"$log" 2>&1; then
    grep -E 'AssertionFailed|expected|ERROR\]' "$log" | head -20
    echo "kill-stress FAILED (log $log)"
    exit 1
fi
grep -E '^(kill-stress:|trial )' "$log"
