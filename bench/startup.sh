#!/usr/bin/env bash
# Times whole-process start-up of segtool against the JVM floor (`java -version`), in one run: `--version`, a scan,
# `explain` and `segments` of the tiny bundled sample. The commands take turns (round-robin) so that every ratio is
# measured under the same load; it prints min and median wall time over RUNS rounds, each ratio to java -version,
# the load average before and after, and the target (a tiny partition judged in <= 3x java -version).
#   bench/startup.sh [RUNS]          (default 15; SEGTOOL_JAVA and SEGTOOL_JAVA_OPTS pass through to the launcher)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-15}"
sample="$here/samples/gallery/healthy"
seg="$here/segtool"

"$seg" --version >/dev/null 2>&1   # builds the jar and its class archive / AOT cache if needed
# the launcher names the java it picked when asked (SEGTOOL_WHICH_JAVA=1)
jvm="$(SEGTOOL_WHICH_JAVA=1 "$seg" --version 2>/dev/null | sed -n 1p)"   # sed reads it all: head -1 could SIGPIPE the launcher (pipefail)
[[ -x "$jvm" ]] || jvm=java

names=("java -version" "segtool --version" "segtool scan (tiny)" "segtool explain (tiny)" "segtool segments (tiny)")
cmds=("java -version"
    "$seg --version"
    "$seg scan --quiet $sample"
    "$seg explain $sample"
    "$seg segments $sample")
if [[ "$jvm" != java && "$("$jvm" -version 2>&1 | head -1)" != "$(java -version 2>&1 | head -1)" ]]; then
    names+=("launcher's java -version")
    cmds+=("$jvm -version")
fi

declare -A times cpus
. "$here/bench/lib.sh"
tf="$(mktemp)"
trap 'rm -f "$tf" "$tf.err"' EXIT
for ((i = 0; i < ${#cmds[@]}; i++)); do eval "${cmds[$i]}" >/dev/null 2>&1 || true; done   # one untimed round
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < runs; r++)); do
    for ((i = 0; i < ${#cmds[@]}; i++)); do
        # wall time from bash's microsecond clock, CPU from GNU time (lib.sh's measure); bash's own `time` of an eval
        # in a subshell had counted some 20 ms of the shell's forks into every row, the floor's too, which flattered
        # every ratio. scan exits with its verdict, ignored here
        eval "measure \"\$tf\" ${cmds[$i]}" || true
        read -r _ user sys _ < <(tail -1 "$tf")
        times[$i]+="$WALL "
        cpus[$i]+="$(awk -v u="$user" -v s="$sys" 'BEGIN{print u + s}') "
    done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

stats() {  # "min median" of the list of seconds $1
    tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2;
        printf "%.3f %.3f", v[1], m}'
}

printf 'segtool start-up, %s rounds (round-robin), %s cores, launcher JVM: %s\n' "$runs" "$(nproc)" \
    "$("$jvm" -version 2>&1 | head -1)"
printf 'load average before: %s   after: %s\n' "$load_before" "$load_after"
awk -v l="${load_after%% *}" -v n="$(nproc)" 'BEGIN{if (l > n) printf \
    "WARNING: load average %.2f > %d cores: other work competes; re-run when the machine is idle\n", l, n}'
read -r floor_min floor_med <<<"$(stats "${times[0]}")"
read -r cfloor_min cfloor_med <<<"$(stats "${cpus[0]}")"
printf '%-26s %7s %8s %6s %6s | %7s %8s %6s\n' "wall time, seconds" "min" "median" "min/fl" "med/fl" "CPU min" "CPU med" \
    "med/fl"
for ((i = 0; i < ${#cmds[@]}; i++)); do
    read -r mn md <<<"$(stats "${times[$i]}")"
    read -r cmn cmd <<<"$(stats "${cpus[$i]}")"
    printf '%-26s %7s %8s %6.2f %6.2f | %7s %8s %6.2f\n' "${names[$i]}" "$mn" "$md" \
        "$(awk -v a="$mn" -v b="$floor_min" 'BEGIN{print a/b}')" "$(awk -v a="$md" -v b="$floor_med" 'BEGIN{print a/b}')" \
        "$cmn" "$cmd" "$(awk -v a="$cmd" -v b="$cfloor_med" 'BEGIN{print a/b}')"
done
echo "(fl: the floor, java -version, in the same rounds; CPU: user + system seconds of the whole process)"
read -r scan_min scan_med <<<"$(stats "${times[2]}")"
ratio="$(awk -v a="$scan_med" -v b="$floor_med" 'BEGIN{printf "%.2f", a/b}')"
met="$(awk -v r="$ratio" 'BEGIN{print (r <= 3) ? "met" : "not met"}')"
printf 'target: tiny partition judged (scan, median) in <= 3x java -version: %sx -> %s\n' "$ratio" "$met"

# What each command loads from outside the start-up cache: a class read from the jar costs its own parse and
# verification, and the first one opens and indexes the whole jar (4,700 entries). Classes the JVM generates at run
# time (lambda forms and proxies) are not counted: no archive holds those of Java 17.
log="$(mktemp)"
missing=0
for ((i = 1; i < ${#cmds[@]}; i++)); do
    [[ "${cmds[$i]}" == "$seg "* ]] || continue
    rm -f "$log"
    eval "SEGTOOL_JAVA_OPTS=\"\${SEGTOOL_JAVA_OPTS:-} -Xlog:class+load:file=$log\" ${cmds[$i]}" >/dev/null 2>&1 || true
    outside="$(grep -E 'source: (file:|jrt:)' "$log" 2>/dev/null | awk '{print $2}' || true)"
    if [[ -n "$outside" ]]; then
        missing=1
        printf '%s: %d classes read from outside the start-up cache, first: %s\n' "${names[$i]}" \
            "$(wc -l <<<"$outside")" "$(head -3 <<<"$outside" | tr '\n' ' ')"
    fi
done
rm -f "$log"
((missing)) || echo "every class these commands load comes from the start-up cache (or is generated at run time)"
