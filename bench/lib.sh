# Shared helpers of the bench/ scripts (sourced). Times whole processes with GNU time, repeats them, and prints
# min and median wall time, min CPU time (user + sys) and peak RSS.
load() { cut -d' ' -f1-3 /proc/loadavg; }

# timed RUNS OUTVAR CMD...: runs CMD RUNS times; sets OUTVAR_min, OUTVAR_med (wall s), OUTVAR_cpu (min user+sys s),
# OUTVAR_rss (max peak RSS, MiB). Output of CMD goes to /dev/null; a failing CMD aborts the bench.
timed() {
    local runs="$1" var="$2"
    shift 2
    local walls=() cpus=() rss=0 e u s m i tf
    tf="$(mktemp)"
    for ((i = 0; i < runs; i++)); do
        if ! /usr/bin/time -f '%e %U %S %M' -o "$tf" "$@" >/dev/null 2>"$tf.err"; then
            case "$1" in   # segtool's verdict exit codes (1 damage) are not failures of the bench
                */segtool) ;;
                *) echo "bench: failed: $* ($(head -c 300 "$tf.err"))" >&2; rm -f "$tf" "$tf.err"; exit 1 ;;
            esac
        fi
        read -r e u s m < <(tail -1 "$tf")
        walls+=("$e")
        cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}')")
        ((m > rss)) && rss=$m
    done
    rm -f "$tf" "$tf.err"
    printf -v "${var}_min" '%s' "$(printf '%s\n' "${walls[@]}" | sort -g | head -1)"
    printf -v "${var}_med" '%s' "$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")"
    printf -v "${var}_cpu" '%s' "$(printf '%s\n' "${cpus[@]}" | sort -g | head -1)"
    printf -v "${var}_rss" '%s' "$((rss / 1024))"
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

need_xxhsum() {
    if ! command -v xxhsum >/dev/null; then
        if [[ $(id -u) == 0 ]]; then
            apt-get install -y -q xxhash >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q xxhash >/dev/null)
        fi
        command -v xxhsum >/dev/null || { echo "bench: xxhsum not found (apt-get install xxhash)" >&2; exit 1; }
    fi
}
