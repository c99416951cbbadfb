#!/usr/bin/env bash
# Random programs (tests/multicore/random_program.py: while and for loops,
# branches, integer arithmetic, array reads and inner reductions, scans and
# maps, mapped over 150 elements) through the C backend and the multicore
# backend's vector code (16 lanes where the processor has AVX-512, and 8;
# one thread and all): the results
# must agree, exactly for integers, within futhorc test's tolerance for
# the float programs (half as many seeds). Ends with
# "random: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/multicore/random.sh [FIRST LAST]   (seeds; FUTHORC=path
#   selects another compiler)
suite=random
source "$(dirname "$0")/../lib.sh"
first=${1:-1} last=${2:-16}
xs="[$(seq -s ', ' -20 16)]"
# 16 lanes (x86-64-v4) only where the processor runs AVX-512 code.
targets=(x86-64-v2)
if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then targets=(x86-64-v4 x86-64-v2); else
    echo "random: 16 lanes (x86-64-v4) not run: this processor has no AVX-512"; fi
for seed in $(seq "$first" "$last"); do
    p=$work/p$seed.fut
    python3 tests/multicore/random_program.py "$seed" >"$p"
    CFLAGS=-O0 "$futhorc" c "$p" -o "$work/c" >"$work/err" 2>&1 || { fail "seed $seed: futhorc c:"; head -5 "$work/err"; continue; }
    for lanes in "${targets[@]}"; do
        "$futhorc" multicore --target-cpu=$lanes "$p" -o "$work/m" >"$work/err" 2>&1 ||
            { fail "seed $seed: futhorc multicore --target-cpu=$lanes:"; head -5 "$work/err"; continue; }
        for m in -3 4 11; do
            want=$(echo "150 $m $xs" | "$work/c" 2>&1)
            for threads in 1 all; do
                opt=()
                [ "$threads" = 1 ] && opt=(--num-threads 1)
                got=$(echo "150 $m $xs" | "$work/m" "${opt[@]}" 2>&1)
                if [ "$got" = "$want" ]; then pass; else
                    fail "seed $seed, m = $m, $lanes, $threads threads: results differ from the C backend's"; fi
            done
        done
    done
done
# Float programs: reductions may reassociate, so the results are compared
# as futhorc test compares them (within its tolerance), on 16 and 8 lanes.
fxs=$(python3 -c "print('[' + ', '.join(f'{i * 0.5}f32' for i in range(-18, 19)) + ']')")
fys=$(python3 -c "print('[' + ', '.join(f'{i * 0.37 - 20}f32' for i in range(150)) + ']')")
for seed in $(seq "$first" $((first + (last - first) / 2))); do
    p=$work/f$seed.fut
    python3 tests/multicore/random_program.py "$seed" f32 >"$work/body.fut"
    CFLAGS=-O0 "$futhorc" c "$work/body.fut" -o "$work/c" >"$work/err" 2>&1 ||
        { fail "f32 seed $seed: futhorc c:"; head -5 "$work/err"; continue; }
    {
        echo "-- =="
        for m in -1.5 2.25; do
            echo "-- input { ${m}f32 $fxs $fys }"
            echo "-- output { $(echo "${m}f32 $fxs $fys" | "$work/c") }"
        done
        cat "$work/body.fut"
    } >"$p"
    for lanes in "${targets[@]}"; do
        if "$futhorc" test --backend=multicore --pass-compiler-option=--target-cpu=$lanes "$p" >"$work/out" 2>&1 &&
            grep -q "^2 passed, 0 failed" "$work/out"; then pass; else
            fail "f32 seed $seed, $lanes: results differ from the C backend's:"; head -5 "$work/out"; fi
    done
done
echo "random: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
