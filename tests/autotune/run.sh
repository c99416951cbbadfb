#!/usr/bin/env bash
# Tests of `futhorc autotune` (compiler/tools/autotune.c) on the installed
# OpenCL device (PoCL in CI): which runs the tuner makes, the tuning file
# it writes and its values inside the intervals it reports, the
# exhaustive search's run count, that futhorc bench and futhorc test
# pass PROG.fut.tuning to the program, the variants of tiled kernels, and
# bad uses. Which version is
# faster is measured on the GPU (bench/tune, bench/RESULTS.md), not here:
# timings on a shared CPU are noise. Ends with "autotune: N passed, N
# failed".
suite=autotune
source "$(dirname "$0")/../lib.sh"
here=tests/autotune

# check NAME PATTERN FILE: FILE matches the extended regular expression.
check() {
    if grep -Eq -- "$2" "$3"; then pass; else
        fail "$1: no line matches $2 in:"
        head -20 "$3" | sed 's/^/    /'
    fi
}

cp $here/rows.fut $here/variant.fut "$work/"
if "$futhorc" autotune -r 1 "$work/rows.fut" >"$work/rows.log" 2>&1; then pass; else fail "autotune rows.fut"; cat "$work/rows.log"; fi
check "datasets (the notune case left out)" '^Tuning 1 threshold on 2 datasets\.$' "$work/rows.log"
check "a baseline and one cut per dataset" '^Tuner: 4 runs\.$' "$work/rows.log"
check "an interval per dataset" 'main:#0 .*: main\.suff_outer_par_0 in \[[0-9]+, [0-9]+\]$' "$work/rows.log"
check "the tuning file" '^main\.suff_outer_par_0=[0-9]+$' "$work/rows.fut.tuning"
# The value written lies in the interval reported for it.
value=$(sed -n 's/^main\.suff_outer_par_0=//p' "$work/rows.fut.tuning")
read -r lo hi < <(sed -n 's/^main\.suff_outer_par_0=.*optimal interval \[\([0-9]*\), \([0-9]*\)\].*/\1 \2/p' "$work/rows.log")
if [ -n "$value" ] && [ -n "$lo" ] && [ "$value" -ge "$lo" ] && [ "$value" -le "$hi" ]; then pass; else
    fail "value $value outside the interval [$lo, $hi]"
fi
check "default and tuned times" '^main:#0 .* +[0-9]+ +[0-9]+$' "$work/rows.log"

"$futhorc" bench --backend=opencl -r 1 "$work/rows.fut" >"$work/bench.log" 2>&1
check "bench uses the tuning file" "\(using $work/rows\.fut\.tuning\):" "$work/bench.log"
"$futhorc" bench --backend=opencl -r 1 --no-tuning "$work/rows.fut" >"$work/bench.log" 2>&1
check "bench --no-tuning" '\(no tuning file\):' "$work/bench.log"
# futhorc test passes the file to the program: a bad value in it makes
# every run fail; --no-tuning and the c backend ignore it. A file naming a
# parameter the program does not have (one written for another compiler,
# such as Futhark's in futhark-benchmarks) is left out, with a note.
echo "main.suff_outer_par_0=x" >"$work/rows.fut.tuning"
"$futhorc" test --backend=opencl "$work/rows.fut" >"$work/test.log" 2>&1
check "test uses the tuning file" "rows\.fut\.tuning expects a non-negative integer, not 'x'" "$work/test.log"
printf 'main.suff_outer_par_0=1\nbogus=1\n' >"$work/rows.fut.tuning"
"$futhorc" test --backend=opencl "$work/rows.fut" >"$work/test.log" 2>&1
check "test leaves out a foreign tuning file" "^NOTE .*rows\.fut: no tuning file: .*rows\.fut\.tuning names 'bogus', which is not a tuning parameter of the program$" "$work/test.log"
check "and runs without it" "^3 passed, 0 failed$" "$work/test.log"
"$futhorc" bench --backend=opencl -r 1 "$work/rows.fut" >"$work/bench.log" 2>&1
check "bench too" "no tuning file: .*names 'bogus'" "$work/bench.log"
echo "main.suff_outer_par_0=x" >"$work/rows.fut.tuning"
expect_run "test --no-tuning" 0 "3 passed, 0 failed" sh -c "'$futhorc' test --backend=opencl --no-tuning '$work/rows.fut' | tail -n 1"
expect_run "test on c without it" 0 "3 passed, 0 failed" sh -c "'$futhorc' test '$work/rows.fut' | tail -n 1"

if "$futhorc" autotune -r 1 "$work/variant.fut" >"$work/variant.log" 2>&1; then pass; else fail "autotune variant.fut"; cat "$work/variant.log"; fi
check "a size-variant threshold: a cut at each of 3 values" '^Tuner: 4 runs\.$' "$work/variant.log"
cp $here/bisect.fut "$work/"
"$futhorc" autotune -r 1 "$work/bisect.fut" >"$work/bisect.log" 2>&1
runs=$(sed -n 's/^Tuner: \([0-9]*\) runs\.$/\1/p' "$work/bisect.log")
if [ -n "$runs" ] && [ "$runs" -ge 3 ] && [ "$runs" -le 9 ]; then pass; else
    fail "bisection over 10 values of P: $runs runs (want 3 to 9)"
    head -20 "$work/bisect.log"
fi
"$futhorc" autotune -r 1 --exhaustive --tuning=.ex "$work/rows.fut" >"$work/ex.log" 2>&1
check "exhaustive: 2 P values and infinity on 2 datasets" '^Exhaustive search: 3 settings x 2 datasets = 6 runs' "$work/ex.log"
check "exhaustive: its file" '^main\.suff_outer_par_0=[0-9]+$' "$work/rows.fut.ex"

# Variant parameters (the tiled kernel's configurations, a set for large
# spaces and one for small ones): each variant on each dataset, after the
# threshold between the sets; one of each written.
cp $here/tiles.fut "$work/"
if "$futhorc" autotune -r 1 "$work/tiles.fut" >"$work/tiles.log" 2>&1; then pass; else fail "autotune tiles.fut"; cat "$work/tiles.log"; fi
check "the threshold between the sets" '^Tuning 1 threshold on 2 datasets\.$' "$work/tiles.log"
check "two variant parameters" '^Tuning 2 variant parameters\.$' "$work/tiles.log"
sed -n 's/^\([a-z_0-9]*\.variant\)=\([0-9]*\) (of \([0-9]*\))$/\1 \2 \3/p' "$work/tiles.log" >"$work/tiles.vars"
runs=$(sed -n 's/^Variants: \([0-9]*\) runs\.$/\1/p' "$work/tiles.log")
total=0
while read -r name value count; do
    total=$((total + 2 * count))
    if [ "$value" -ge 1 ] && [ "$value" -le "$count" ]; then pass; else fail "variant $name=$value of $count"; fi
    check "$name in the tuning file" "^$name=$value\$" "$work/tiles.fut.tuning"
done <"$work/tiles.vars"
if [ "$(wc -l <"$work/tiles.vars")" = 2 ] && [ "$runs" = "$total" ]; then pass; else
    fail "variants: $runs runs, want each variant of each parameter on 2 datasets ($total)"
fi
expect_run "tuned variant used by futhorc test" 0 "2 passed, 0 failed" \
    sh -c "'$futhorc' test --backend=opencl '$work/tiles.fut' | tail -n 1"

echo 'def main (x: i32) = x + 1' >"$work/plain.fut"
expect_run "nothing to tune" 0 "Compiling $work/plain.fut...
$work/plain.fut has no thresholds: nothing to tune." "$futhorc" autotune "$work/plain.fut"
expect_run "no program" 1 "" "$futhorc" autotune
check "no program: message" 'no program given' "$work/err"
expect_run "two programs" 1 "" "$futhorc" autotune "$work/rows.fut" "$work/plain.fut"
expect_run "bad runs" 1 "" "$futhorc" autotune -r 0 "$work/rows.fut"
expect_run "missing program" 1 "" "$futhorc" autotune "$work/none.fut"
check "missing program: message" 'cannot read' "$work/err"

echo "autotune: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
