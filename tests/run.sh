#!/usr/bin/env bash
# The `make check` driver: runs each cmocka unit test binary given as an
# argument, then `bin/futhorc test` over the test program directories, and
# ends with one line "N passed, N failed" totalling both. Exits 1 if any test
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

dirs=()
for d in tests/programs tests/errors examples; do
    [ -d "$d" ] && dirs+=("$d")
done
if [ ${#dirs[@]} -gt 0 ]; then
    bin/futhorc test "${dirs[@]}" >"$log" 2>&1
    rc=$?
    cat "$log"
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$summary" ]; then
        echo "bin/futhorc test: exited with status $rc and no summary"
        failed=$((failed + 1))
    else
        passed=$((passed + $(echo "$summary" | sed 's/ passed.*//')))
        failed=$((failed + $(echo "$summary" | sed 's/.* \([0-9]*\) failed.*/\1/')))
        if [ "$rc" -ne 0 ] && ! echo "$summary" | grep -q ' [1-9][0-9]* failed'; then
            echo "bin/futhorc test: exited with status $rc"
            failed=$((failed + 1))
        fi
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
