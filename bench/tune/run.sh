#!/usr/bin/env bash
# Measures futhorc autotune on the programs of bench/tune (issue 18), on
# the machine's OpenCL device: for each program, the tuner and the
# exhaustive search (their output shows the run counts), then futhorc
# bench with the defaults, with the tuner's file and with the exhaustive
# search's file, in one job.
#
#   usage: bench/tune/run.sh [RUNS] [PROGRAM.fut...]   (FUTHORC=path selects the compiler)
cd "$(dirname "$0")/../.." || exit 1
futhorc=${FUTHORC:-bin/futhorc}
runs=${1:-5}
shift
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(bench/tune/*.fut)
for p in "${progs[@]}"; do
    echo "=== $p"
    "$futhorc" autotune -r "$runs" "$p" 2>&1 | grep -v "^Compiling"
    "$futhorc" autotune -r "$runs" --exhaustive --tuning=.exhaustive "$p" | grep -E '^(Exhaustive|main)'
    for t in "--no-tuning" "--tuning=.tuning" "--tuning=.exhaustive"; do
        echo "--- bench $t"
        "$futhorc" bench --backend=opencl -r 10 "$t" "$p" | grep -E 'μs|using|tuning'
    done
done
