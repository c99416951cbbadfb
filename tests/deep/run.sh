#!/usr/bin/env bash
# Long and deeply nested programs, generated here (they are too large to
# keep): chains of 10,000 and 100,000 lets (plain, local functions and
# in-place updates) compile and the shorter one runs; 100,000 top-level
# definitions, else-if chains and array literals of 100,000 elements
# compile; programs deeper than the limits (the parser's stack,
# TC_MAX_DEPTH) are rejected with an error at a source location, never a
# crash; and the C of a nest of array literals grows linearly with its
# depth. Ends with "deep: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/deep/run.sh      (FUTHORC=path selects another compiler)
suite=deep
source "$(dirname "$0")/../lib.sh"

# lets N: main x is x + N + a[0] through a chain of N lets, every third a
# local function and every fifth an in-place update of a, whose last one
# stores the running value (awk prints the expected result for x = 0 on
# stderr).
lets() {
    awk -v n="$1" 'BEGIN {
        print "def main (x: i32) : i32 =\n  let a = [0i32, 0] in\n  let x0 = x + 1 in"
        for (i = 1; i < n; i++) {
            if (i % 3 == 0) printf "  let f%d (y: i32) = y + 1 in\n  let x%d = f%d x%d in\n", i, i, i, i - 1
            else printf "  let x%d = x%d + 1 in\n", i, i - 1
            if (i % 5 == 0) { printf "  let a[0] = x%d in\n", i; last = i + 1 }
        }
        printf "  x%d + a[0]\n", n - 1
        printf "%di32\n", n + last > "/dev/stderr"
    }'
}

# expect_ok NAME FILE STAGE: futhorc dump --stage=STAGE FILE succeeds.
expect_ok() {
    if "$futhorc" dump --stage="$3" "$2" >"$work/out" 2>"$work/err"; then
        pass
    else
        fail "$1: dump --stage=$3 exited with $?:"
        head -5 "$work/err"
    fi
}

# expect_error NAME FILE PATTERN: compiling FILE fails with status 1 and an
# error "FILE:LINE:COL: error: ..." matching PATTERN.
expect_error() {
    "$futhorc" check "$2" >/dev/null 2>"$work/err"
    local rc=$?
    if [ $rc -eq 1 ] && grep -Eq "^$2:[0-9]+:[0-9]+: error: .*$3" "$work/err"; then
        pass
    else
        fail "$1: exit status $rc, expected an error matching '$3':"
        head -5 "$work/err"
    fi
}

# ---- Chains of lets ---------------------------------------------------------------

lets 10000 >"$work/lets10k.fut" 2>"$work/lets10k.expected"
if "$futhorc" c "$work/lets10k.fut" -o "$work/lets10k" >"$work/err" 2>&1; then
    got=$(echo 0 | "$work/lets10k")
    [ "$got" = "$(cat "$work/lets10k.expected")" ] && pass ||
        fail "10,000 lets: printed '$got', expected '$(cat "$work/lets10k.expected")'"
else
    fail "10,000 lets do not compile:"
    head -5 "$work/err"
fi
lets 100000 >"$work/lets100k.fut" 2>/dev/null
expect_ok "100,000 lets" "$work/lets100k.fut" c
expect_ok "100,000 lets" "$work/lets100k.fut" opencl
expect_ok "100,000 lets" "$work/lets100k.fut" ast
lets 250000 >"$work/lets250k.fut" 2>/dev/null
expect_error "250,000 lets" "$work/lets250k.fut" "nested too deeply to parse"

# ---- Other long and deep constructs -------------------------------------------------

awk 'BEGIN { for (i = 0; i < 100000; i++) printf "def f%d = %di32\n", i, i
             print "def main (x: i32) = x + f99999" }' >"$work/defs.fut"
expect_ok "100,000 definitions" "$work/defs.fut" c
awk 'BEGIN { printf "def main (x: i32) = ["; for (i = 0; i < 100000; i++) printf "%s%d", i ? ", " : "", i % 7
             print "] |> map (+ x)" }' >"$work/list.fut"
expect_ok "100,000 elements" "$work/list.fut" c
# else-if chains: within TC_MAX_DEPTH they compile, beyond it they are an error
elifs() {
    awk -v n="$1" 'BEGIN { print "def main (x: i32) : i32 ="
                           for (i = 0; i < n; i++) printf "  if x == %d then %d else\n", i, i
                           print "  0" }'
}
elifs 1500 >"$work/elif1500.fut"
expect_ok "1,500 else-ifs" "$work/elif1500.fut" c
elifs 100000 >"$work/elif100k.fut"
expect_error "100,000 else-ifs" "$work/elif100k.fut" "nested too deeply"
awk 'BEGIN { printf "def main (x: i32) = "; for (i = 0; i < 100000; i++) printf "x + "; print "x" }' >"$work/sum.fut"
expect_error "a sum of 100,000 terms" "$work/sum.fut" "nested too deeply"

# ---- Generated code linear in the program -------------------------------------------

# nest D: an array literal nested D deep.
nest() { awk -v d="$1" 'BEGIN { printf "def main (x: i32) = "; for (i = 0; i < d; i++) printf "["
                                printf "x"; for (i = 0; i < d; i++) printf "]"; print "" }'; }
# Each level adds a statement (an allocation, its check and a copy) of a
# few hundred bytes; a loop per dimension of each copy made 400 levels
# 93 MB of C.
per_level=1000
for stage in c opencl; do
    nest 1 >"$work/nest1.fut"
    nest 400 >"$work/nest400.fut"
    one=$("$futhorc" dump --stage=$stage "$work/nest1.fut" | wc -c)
    deep=$("$futhorc" dump --stage=$stage "$work/nest400.fut" | wc -c)
    if [ "$deep" -gt "$one" ] && [ $((deep - one)) -le $((399 * per_level)) ]; then
        pass
    else
        fail "--stage=$stage: a nest of 400 array literals gives $deep bytes, 1 gives $one (at most $per_level a level)"
    fi
done

echo "deep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
