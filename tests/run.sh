#!/usr/bin/env bash
# The `make check` driver: runs each cmocka unit test binary given as an
# argument, then `bin/futhorc test` over the test program directories, the
# robustness test and the other suites (the compiler itself under
# sanitizers among them), and ends with one line "N passed, N failed"
# totalling all of them. Exits 1 if any test
# failed or any binary crashed or could not run.
#
#   bash tests/run.sh build/tests/test_a build/tests/test_b ...

passed=0
failed=0
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT

# Adds the sum of the numbers that sed script $1 extracts from the log.
count() { sed -n "$1" "$log" | awk '{ s += $1 } END { print s + 0 }'; }

for t in "$@"; do
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(count 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p')
    f=$(count 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$t: exited with status $rc"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done

# Runs a command whose last summary line is "[word: ]N passed, N failed"
# and adds its counts.
summarised() {
    "$@" >"$log" 2>&1
    local rc=$? summary
    cat "$log"
    summary=$(grep -E '^([a-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed 's/^[a-z]*: //')
    if [ -z "$summary" ]; then
        echo "$1: exited with status $rc and no summary"
        failed=$((failed + 1))
        return
    fi
    passed=$((passed + $(echo "$summary" | sed 's/ passed.*//')))
    failed=$((failed + $(echo "$summary" | sed 's/.* \([0-9]*\) failed.*/\1/')))
    if [ "$rc" -ne 0 ] && ! echo "$summary" | grep -q ' [1-9][0-9]* failed'; then
        echo "$1: exited with status $rc"
        failed=$((failed + 1))
    fi
}

dirs=()
for d in tests/programs tests/errors tests/structure tests/fusion tests/gpu examples bench; do
    [ -d "$d" ] && dirs+=("$d")
done
[ ${#dirs[@]} -gt 0 ] && summarised bin/futhorc test -j "$(nproc)" --pass-compiler-option=--verify "${dirs[@]}"
# The same programs through the OpenCL backend, on PoCL (a CPU OpenCL
# device) or whatever OpenCL device is installed; results must agree with
# the expected outputs exactly as on the C backend.
cl_dirs=()
for d in tests/programs tests/structure tests/fusion tests/gpu examples bench; do
    [ -d "$d" ] && cl_dirs+=("$d")
done
if ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
    summarised bin/futhorc test -j "$(nproc)" --backend=opencl "${cl_dirs[@]}"
    summarised bash tests/opencl/run.sh
elif [ -n "${FUTHORC_REQUIRE_OPENCL:-}" ]; then
    echo "opencl: no OpenCL platform installed (FUTHORC_REQUIRE_OPENCL is set)"
    failed=$((failed + 1))
else
    echo "opencl: SKIPPED: no OpenCL platform installed (apt-get install pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers)"
fi
summarised bash tests/compose/run.sh
summarised bash tests/robustness.sh
summarised bash tests/sanitize/run.sh
summarised bash tests/deep/run.sh
summarised bash tests/server/run.sh
summarised bash tests/library/run.sh
summarised bash tests/bench/run.sh
# The fuzz targets (build/fuzz, which `make check` builds): regression
# inputs, then half a minute of fuzzing each, two at a time.
summarised bash tests/fuzz/run.sh --check

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
