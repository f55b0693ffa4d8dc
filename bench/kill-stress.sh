#!/usr/bin/env bash
# Randomised kill -9 of repair --apply, rebuild-index --apply, restore --apply, repair --accept-loss --apply and
# apply --plan --apply (KillStressTest) at scale:
#   bench/kill-stress.sh [TRIALS] [MIB] [SEED] [-v]    defaults: 2000 trials, 256 MiB partitions, seed 1586954262
# Each trial copies a damaged four-segment partition of MIB MiB of log (for apply --plan the replica and its
# donor), hands the command to a child JVM started ahead (warm, waiting for it) and SIGKILLs it right after a random
# mutation step or at a random moment of its run, checks that the partition and its quarantines hold every original
# byte (XXH3 of every range against the original's, digested once per case), re-runs the command and checks it
# leaves exactly what an uninterrupted run leaves (XXH3 of every file, by name). The suite runs 20 trials of
# 256 KiB; this is the long form. Prints the test's summary line (trials, seed, how many were killed mid-run, how
# many finished first), the wall / CPU / child-JVM CPU per trial of each phase, and every trial with -v.
#
# The templates (about 14 x MIB) go to java.io.tmpdir (/tmp). The trials (about 4 x MIB at a time: the copy, its
# quarantine, accept-loss's salvage archive) run in KILLSTRESS_DIR, by default /dev/shm when it has room: kill -9 ends
# the process, not the machine, so what the child wrote is in the page cache whichever file system holds it, and
# tmpfs spares the disk each trial's writes and fsyncs. KILLSTRESS_DIR=/path/on/disk runs them there instead.
# Runs at nice 19.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
trials="${1:-2000}"
mib="${2:-256}"
seed="${3:-1586954262}"
verbose=false
[[ "${4:-}" == -v ]] && verbose=true
dir="${KILLSTRESS_DIR-}"
if [[ -z "${KILLSTRESS_DIR+set}" && -d /dev/shm && -w /dev/shm ]] \
        && (($(df -Pm /dev/shm | awk 'NR == 2 {print $4}') > 6 * mib)); then
    dir=/dev/shm
fi
cd "$here"
log="${TMPDIR:-/tmp}/segtool-kill-stress-$seed.log"
echo "kill-stress: $trials trials of $mib MiB, seed $seed, trials in ${dir:-java.io.tmpdir}, log $log ($(date -u +%H:%M:%S) UTC)"
if ! nice -n 19 mvn -B -pl analyzers -am test -Dtest=KillStressTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Dkillstress.trials="$trials" -Dkillstress.bytes=$((mib << 20)) -Dkillstress.seed="$seed" \
        -Dkillstress.verbose="$verbose" -Dkillstress.dir="$dir" >"$log" 2>&1; then
    grep -E 'AssertionFailed|expected|ERROR\]' "$log" | head -20
    echo "kill-stress FAILED (log $log)"
    exit 1
fi
grep -E '^(kill-stress|trial )' "$log"
echo "kill-stress: done $(date -u +%H:%M:%S) UTC"
