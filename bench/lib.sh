# Shared helpers of the bench/ scripts (sourced). Times whole processes, repeats them, and prints min and median
# wall time, min CPU time (user + sys) and peak RSS.
load() { cut -d' ' -f1-3 /proc/loadavg; }

# measure TF CMD...: runs CMD (output to /dev/null) under GNU time, which writes its CPU and peak RSS to TF, and sets
# WALL to the wall time in seconds from bash's microsecond clock: GNU time's own %e moves in 10 ms steps, a third of
# a 30 ms java -version. The clock also counts starting GNU time itself (about a millisecond), alike for every row.
measure() {
    local tf="$1" t0 t1 rc=0
    shift
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%e %U %S %M' -o "$tf" "$@" >/dev/null 2>"$tf.err" || rc=$?
    t1=$EPOCHREALTIME
    WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b - a}')
    return $rc
}

# timed RUNS OUTVAR CMD...: runs CMD RUNS times; sets OUTVAR_min, OUTVAR_med (wall s), OUTVAR_cpu (min user+sys s),
# OUTVAR_rss (max peak RSS, MiB). Output of CMD goes to /dev/null; a failing CMD aborts the bench.
timed() {
    local runs="$1" var="$2"
    shift 2
    local walls=() cpus=() rss=0 e u s m i tf
    tf="$(mktemp)"
    for ((i = 0; i < runs; i++)); do
        if ! measure "$tf" "$@"; then
            case "$1" in   # segtool's verdict exit codes (1 damage) are not failures of the bench
                */segtool) ;;
                *) echo "bench: failed: $* ($(head -c 300 "$tf.err"))" >&2; rm -f "$tf" "$tf.err"; exit 1 ;;
            esac
        fi
        read -r e u s m < <(tail -1 "$tf")
        walls+=("$WALL")
        cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')")
        ((m > rss)) && rss=$m
    done
    rm -f "$tf" "$tf.err"
    printf -v "${var}_min" '%s' "$(printf '%s\n' "${walls[@]}" | sort -g | head -1)"
    printf -v "${var}_med" '%s' "$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")"
    printf -v "${var}_cpu" '%s' "$(printf '%s\n' "${cpus[@]}" | sort -g | head -1)"
    printf -v "${var}_rss" '%s' "$((rss / 1024))"
}

# timed_rr RUNS VAR -- CMD... [-- VAR -- CMD...]...: as timed for each VAR, the commands taking turns (round-robin,
# RUNS rounds) so that a change of load on the shared machine hits them alike and their ratios stay meaningful.
timed_rr() {
    local runs="$1" r i n=0 tf
    shift
    local vars=() cmds=()
    while (($#)); do   # VAR -- CMD... up to the next "-- VAR --" or the end
        local v="$1" c=()
        shift 2
        while (($#)) && ! [[ "$1" == -- && $# -ge 3 && "$3" == -- ]]; do c+=("$1"); shift; done
        (($#)) && shift
        vars+=("$v")
        cmds+=("$(printf '%q ' "${c[@]}")")
    done
    tf="$(mktemp)"
    declare -A walls cpus rss
    for ((r = 0; r < runs; r++)); do
        for ((i = 0; i < ${#vars[@]}; i++)); do
            local e u s m
            if ! eval "measure \"\$tf\" ${cmds[$i]}"; then
                case "${cmds[$i]}" in
                    *segtool\ * | *segtool) ;;   # a verdict exit code (1 damage) is not a failure of the bench
                    *) echo "bench: failed: ${cmds[$i]} ($(head -c 300 "$tf.err"))" >&2; rm -f "$tf" "$tf.err"; exit 1 ;;
                esac
            fi
            read -r e u s m < <(tail -1 "$tf")
            walls[$i]+="$WALL "
            cpus[$i]+="$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}') "
            ((m > ${rss[$i]:-0})) && rss[$i]=$m
        done
    done
    rm -f "$tf" "$tf.err"
    for ((i = 0; i < ${#vars[@]}; i++)); do
        local v="${vars[$i]}"
        printf -v "${v}_min" '%s' "$(tr ' ' '\n' <<<"${walls[$i]}" | grep . | sort -g | head -1)"
        printf -v "${v}_med" '%s' "$(tr ' ' '\n' <<<"${walls[$i]}" | grep . | sort -g | sed -n "$(((runs + 1) / 2))p")"
        printf -v "${v}_cpu" '%s' "$(tr ' ' '\n' <<<"${cpus[$i]}" | grep . | sort -g | head -1)"
        printf -v "${v}_rss" '%s' "$((${rss[$i]:-0} / 1024))"
    done
}

# cores_free: how many cores this run gets right now: one busy loop per core for about a second, their CPU time over
# the wall time (about the core count on an idle machine; 1 or less means a 2-thread figure cannot show scaling)
cores_free() {
    local n tf
    n="$(nproc)"
    tf="$(mktemp)"
    /usr/bin/time -o "$tf" -f '%e %U %S' bash -c 'for ((i = 0; i < '"$n"'; i++)); do
        (s=${EPOCHREALTIME/./}; while (( ${EPOCHREALTIME/./} - s < 1000000 )); do :; done) & done; wait' \
        >/dev/null 2>&1
    awk '{ if ($1 > 0) printf "%.2f", ($2 + $3) / $1; else print "?" }' "$tf"
    rm -f "$tf"
}

# busy: a warning line when the 1-minute load average exceeds the core count (the figures then mean little)
busy() {
    awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v n="$(nproc)" 'BEGIN{if (l > n) printf \
        "  WARNING: load average %.2f > %d cores: other work competes; re-run when the machine is idle\n", l, n}'
}

# row LABEL VAR [BYTES]: one line of a timing table
row() {
    local label="$1" v="$2" bytes="${3:-}" mn md cpu rss rate=""
    mn="${v}_min"; md="${v}_med"; cpu="${v}_cpu"; rss="${v}_rss"
    [[ -n "$bytes" ]] && rate=$(awk -v b="$bytes" -v t="${!mn}" 'BEGIN{if (t > 0) printf "%6.2f GB/s", b/t/1e9; else print "   inf GB/s"}')
    printf '  %-40s min %6.3f s  median %6.3f s  cpu %6.2f s  %s  rss %4d MiB\n' "$label" "${!mn}" "${!md}" \
        "${!cpu}" "$rate" "${!rss}"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{if (b > 0) printf "%.2f", a/b; else print "inf"}'; }

# target LABEL VALUE OP LIMIT: prints "met" or "NOT met"
target() {
    local label="$1" value="$2" op="$3" limit="$4" ok
    ok=$(awk -v v="$value" -v l="$limit" -v op="$op" 'BEGIN{print (op == "<=" ? v <= l : v >= l) ? "met" : "NOT met"}')
    printf '  target %-52s %8s %s %-6s %s\n' "$label" "$value" "$op" "$limit" "$ok"
}

# disk_kib: KiB read from block devices since boot (/proc/vmstat pgpgin); the difference over a table's runs is what
# they read from disk instead of the page cache (the inputs are meant to be cached: then it stays near 0)
disk_kib() { awk '$1 == "pgpgin" {print $2}' /proc/vmstat 2>/dev/null || echo 0; }

# from_disk BEFORE: a warning line when more than 64 MiB were read from disk since disk_kib gave BEFORE (the page cache
# did not hold the inputs through the runs, so the figures include the disk; seen here with 8 GiB of inputs on a
# machine with 24 GiB: the kernel had dropped part of them)
from_disk() {
    local d=$(($(disk_kib) - $1))
    ((d > 65536)) && echo "  WARNING: $((d / 1024)) MiB were read from disk during these runs, not from the page cache:"\
        "the figures include the disk (fewer or smaller inputs per run, or re-run)"
    return 0
}

need_xxhsum() {
    if ! command -v xxhsum >/dev/null; then
        if [[ $(id -u) == 0 ]]; then
            apt-get install -y -q xxhash >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q xxhash >/dev/null)
        fi
        command -v xxhsum >/dev/null || { echo "bench: xxhsum not found (apt-get install xxhash)" >&2; exit 1; }
    fi
}
