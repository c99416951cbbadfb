#!/usr/bin/env bash
# Times each version of the multi-versioned maps of a program of
# bench/tune (issue 18) on the machine's OpenCL device, in one job:
#   outer    every threshold at 0 (the maps as written, a work-item per element)
#   intra    the outer versions' thresholds at 2^40 and the intra-group
#            ones at 0 (a work-group per element where it fits the device)
#   dist     every threshold at 2^40 (the distributed versions)
#   default  the default thresholds (-L shows which version each run took)
#
#   usage: bench/tune/versions.sh RUNS PROGRAM.fut [VERSION...]   (FUTHORC=path selects the compiler)
cd "$(dirname "$0")/../.." || exit 1
futhorc=${FUTHORC:-bin/futhorc}
runs=${1:?usage: versions.sh RUNS PROGRAM.fut [outer|intra|dist|default...]}
prog=${2:?usage: versions.sh RUNS PROGRAM.fut [outer|intra|dist|default...]}
shift 2
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(outer intra dist default)
exe=$(mktemp)
trap 'rm -f "$exe"' EXIT
"$futhorc" opencl "$prog" -o "$exe" || exit 1
never=1099511627776
for v in "${versions[@]}"; do
    opts=()
    case $v in
    outer) opts=(-p --default-threshold=0) ;;
    dist) opts=(-p "--default-threshold=$never") ;;
    intra)
        for p in $("$exe" --print-params | sed -n 's/^\([^ ]*suff_outer_par_[0-9]*\) .*/\1/p'); do opts+=(-p --param -p "$p=$never"); done
        for p in $("$exe" --print-params | sed -n 's/^\([^ ]*suff_intra_par_[0-9]*\) .*/\1/p'); do opts+=(-p --param -p "$p=0"); done
        ;;
    default) ;;
    *) echo "versions.sh: unknown version $v" >&2; exit 1 ;;
    esac
    echo "--- $v"
    "$futhorc" bench --backend=opencl --no-tuning -r "$runs" "${opts[@]}" "$prog" | grep -E 'μs'
done
