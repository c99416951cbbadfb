#!/usr/bin/env bash
# Runs the fuzz targets that `make fuzz-build` puts in build/fuzz: for each,
# first its regression inputs (tests/fuzz/regressions/TARGET, each run
# once), then libFuzzer from the target's seeds for FUZZ_TIME seconds. A
# target fails on any crash, hang (an input running over -timeout), leak
# or sanitizer report; libFuzzer writes the input that caused it to
# build/fuzz/artifacts/TARGET. Prints the executions and their rate per
# target and ends with "fuzz: N passed, N failed" (a regression input or a
# target's run counts one each); exits 1 if any failed.
#
#   usage: tests/fuzz/run.sh [--check] [TARGET...]    (default: every target)
#   FUZZ_TIME      seconds of fuzzing per target (default 60; --check: 15)
#   FUZZ_JOBS      processes per target (default 1; more use libFuzzer's
#                  -fork mode, which goes on after a crash, keeping each)
#   FUZZ_PARALLEL  targets fuzzed at once (default 1; --check: 2)
#   FUZZ_DIR       where the targets are (default build/fuzz)
# Without --check a target keeps the inputs it finds in FUZZ_DIR/corpus/
# TARGET for the next run; --check (`make check`) starts from the seeds
# alone, so that what earlier runs found does not change the result.
cd "$(dirname "$0")/../.." || exit 1
check=false
if [ "${1:-}" = --check ]; then
    check=true
    shift
fi
dir=${FUZZ_DIR:-build/fuzz}
time=${FUZZ_TIME:-$($check && echo 15 || echo 60)}
jobs=${FUZZ_JOBS:-1}
parallel=${FUZZ_PARALLEL:-$($check && echo 2 || echo 1)}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontend pipeline values server library)
passed=0 failed=0

# Per target: its seed corpus (under FUZZ_DIR/seeds; none for the library's
# programs of API calls) and longest input: the compiler targets' as long
# as most test programs, the others' enough for several values or
# commands (and little time per input).
declare -A seeds=([frontend]=programs [pipeline]=programs [values]=values [server]=server [library]=)
declare -A max_len=([frontend]=8192 [pipeline]=4096 [values]=4096 [server]=4096 [library]=1024)
# Every input must finish in this many seconds (hangs), and every target
# stay within this memory (a leak that grows it, a huge allocation).
TIMEOUT=10
RSS_LIMIT_MB=2048

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
out=$dir/logs
mkdir -p "$out" || exit 1

# replay TARGET: runs each regression input of TARGET once.
replay() {
    local t=$1 f
    for f in tests/fuzz/regressions/"$t"/*; do
        [ -f "$f" ] || continue
        if "$dir/$t" "$f" >"$out/$t.replay.log" 2>&1; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "fuzz: FAIL $t: regression input $f:"
            grep -E 'ERROR|SUMMARY|runtime error|oracle|#[0-9]+ ' "$out/$t.replay.log" | head -20
        fi
    done
}

# fuzz TARGET: fuzzes TARGET for $time seconds; writes "pass" or "fail" and
# the summary line to $out/TARGET.result.
fuzz() {
    local t=$1 corpus art=$PWD/$dir/artifacts/$t log=$out/$t.log
    if $check; then corpus=$(mktemp -d); else corpus=$dir/corpus/$t; fi
    mkdir -p "$corpus" "$art"
    local before opts=(-max_total_time="$time" -max_len="${max_len[$t]}" -timeout=$TIMEOUT
                       -rss_limit_mb=$RSS_LIMIT_MB -close_fd_mask=3 -print_final_stats=1
                       -artifact_prefix="$art/")
    [ "$jobs" -gt 1 ] && opts+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    before=$(ls "$art" | wc -l)
    local seed_dir=()
    [ -n "${seeds[$t]}" ] && seed_dir=("$dir/seeds/${seeds[$t]}")
    "$dir/$t" "${opts[@]}" "$corpus" "${seed_dir[@]}" >"$log" 2>&1
    local rc=$? found runs rate
    found=$(($(ls "$art" | wc -l) - before))
    $check && rm -rf "$corpus"
    # Non-fork runs end with stat:: lines, fork runs with "#N: ... exec/s R".
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ -z "$runs" ]; then
        runs=$(sed -n 's/^#\([0-9]*\): .*/\1/p' "$log" | tail -n 1)
        rate=$(sed -n 's/^#[0-9]*: .* exec\/s \([0-9]*\).*/\1/p' "$log" | tail -n 1)
    fi
    local summary="$t: ${runs:-0} executions in ${time} s (${rate:-0} exec/s)"
    if [ "$rc" -eq 0 ] && [ "$found" -eq 0 ]; then
        echo "pass $summary" >"$out/$t.result"
    else
        echo "fail $summary; status $rc, $found new inputs in $art" >"$out/$t.result"
    fi
}

for t in "${targets[@]}"; do
    if [ ! -x "$dir/$t" ]; then
        echo "fuzz: FAIL $t: no $dir/$t (make fuzz-build)"
        failed=$((failed + 1))
        continue
    fi
    replay "$t"
done
for t in "${targets[@]}"; do
    [ -x "$dir/$t" ] || continue
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n; done
    rm -f "$out/$t.result"
    fuzz "$t" &
done
wait
for t in "${targets[@]}"; do
    [ -x "$dir/$t" ] || continue
    read -r verdict summary <"$out/$t.result"
    if [ "$verdict" = pass ]; then
        passed=$((passed + 1))
        echo "fuzz: $summary"
    else
        failed=$((failed + 1))
        echo "fuzz: FAIL $summary"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|fuzz oracle)' "$out/$t.log" | head -10
        echo "fuzz: reproduce with $dir/$t FILE; keep FILE in tests/fuzz/regressions/$t/ once fixed"
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
