#!/usr/bin/env bash
# futhorc eval and futhorc repl: values of every shape (scalars, arrays,
# empty arrays, tuples, records), a loaded file's definitions, the
# session's declarations (def, let, type), :type, :load, :help, errors
# (type errors, run-time errors, functions, syntax, unknown commands)
# that leave the session going, and the session of README.md replayed
# through a pseudo-terminal (tests/repl/session.py). Ends with
# "repl: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/repl/run.sh      (FUTHORC=path selects another compiler)
suite=repl
source "$(dirname "$0")/../lib.sh"
futhorc=$(realpath "$futhorc")

# check NAME WANT_STATUS WANT_OUT ARGS...: futhorc eval ARGS (stderr in
# $work/err).
check() {
    local name=$1 want_rc=$2 want=$3
    shift 3
    expect_run "$name" "$want_rc" "$want" "$futhorc" eval "$@"
}

printf 'def sq (x: i64) = x * x\ntype point = {x: f32, y: f32}\ndef origin : point = {x = 0, y = 0}\n' >"$work/lib.fut"
check "a scalar" 0 "3i32" "1 + 2"
check "an array" 0 "[0i64, 2i64, 4i64]" "map (* 2) (iota 3)"
check "an empty array" 0 "empty([0]i64)" "iota 0"
check "a tuple and a record" 0 "(1i32, {a=2.5f64, b=true})" "(1, {b = true, a = 2.5})"
check "several expressions" 0 "$(printf '1i32\n2i32')" "1" "2"
check "a loaded file" 0 "144i64" -f "$work/lib.fut" "sq 12"
check "a loaded file's record" 0 "{x=0f32, y=0f32}" -f "$work/lib.fut" "origin"
check "a function" 1 "" "\\x -> x + 1"
grep -q "a function (of type i32 -> i32) cannot be shown" "$work/err" && pass || fail "the message for a function"
check "a type error" 1 "" "1 + true"
check "a run-time error" 1 "" "[1, 2][5]"
grep -q "Index \[5\] out of bounds" "$work/err" && pass || fail "the message of a run-time error"
check "no expression" 1 ""

# A session from a pipe: the state carries from line to line, errors do not end it.
printf 'let x = 5i64\nx * 2\ndef f (y: i64) = y + sq x\nf 10\n:type f\ntype t = (i32, bool)\ndef v : t = (1, false)\nv\n1 +\n:frob\nx + 1\n:load %s\nx\n:help\n' "$work/lib.fut" |
    "$futhorc" repl "$work/lib.fut" >"$work/out" 2>&1
for want in '\[1\]> 10i64$' '\[3\]> 35i64$' '\[4\]> f : \(y: i64\) -> i64$' '\[7\]> \(1i32, false\)$' \
    'unknown command :frob' '\[10\]> 6i64$' 'Unknown name "x"' ':load FILE'; do
    grep -Eq -- "$want" "$work/out" && pass || { fail "the session has no line /$want/:"; cat "$work/out"; }
done

# The README's session, typed on a terminal.
sed -n '/^<!-- repl session -->$/,/^<!-- end -->$/p' README.md | sed '1d;$d;s/^    //' >"$work/readme.txt"
[ -s "$work/readme.txt" ] && pass || fail "README.md has no repl session"
if (cd "$work" && python3 "$OLDPWD/tests/repl/session.py" "$futhorc" readme.txt) >"$work/pty.out" 2>&1; then
    passed=$((passed + $(grep -c '^PASS' "$work/pty.out")))
else
    fail "the README's session:"
    cat "$work/pty.out"
fi

echo "repl: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
