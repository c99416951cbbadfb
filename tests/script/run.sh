#!/usr/bin/env bash
# futhorc script (FutharkScript against a program in server mode): every
# form of the language (literals typed by the parameter they are passed
# to, let, tuple let and chains of lets, tuples, records, field projection,
# applications with uncurrying and flattened tuple and record arguments,
# results shaped as declared, entry points of no arguments, comments), every builtin
# ($loaddata, $loadbytes, $store, $restore), -e and -f in order, binary
# output, a compiled program instead of a .fut file, another backend, and
# the errors: syntax (with its position), unknown entry point, wrong
# number of arguments, a literal of the wrong type, a run-time error, an
# unknown builtin, a missing file; and the compiler's --entry-point. Ends with "script: N passed, N failed";
# exits 1 if anything failed.
#
#   usage: tests/script/run.sh      (FUTHORC=path selects another compiler)
suite=script
source "$(dirname "$0")/../lib.sh"

# check NAME WANT_STATUS WANT_OUT ARGS...: futhorc script ARGS (stderr in
# $work/err).
check() {
    local name=$1 want_rc=$2 want=$3
    shift 3
    expect_run "$name" "$want_rc" "$want" "$futhorc" script "$@"
}
# err NAME PATTERN: the last check's stderr matches PATTERN.
err() { if grep -Eq -- "$2" "$work/err"; then pass; else fail "$1: no /$2/ in:"; cat "$work/err"; fi; }

p=$work/p.fut
cat >"$p" <<'FUT'
entry add (x: i64) (y: i64) : i64 = x + y
entry scale (k: f32) (xs: []f32) : []f32 = map (* k) xs
entry pair (n: i64) : (i64, []i32) = (n, map i32.i64 (iota n))
entry sum_pair (n: i64) (xs: []i32) : i64 = n + i64.i32 (i32.sum xs)
entry rec (n: i64) : {a: i64, b: []bool} = {a = n, b = replicate n true}
entry count_true [m] (r: {a: i64, b: [m]bool}) : i64 = r.a + i64.sum (map i64.bool r.b)
entry seven : i32 = 7
entry at (xs: []i32) (i: i64) : i32 = xs[i]
entry bytes (s: []u8) : i64 = length s
FUT
printf '1.5f32 [1f32, 2f32]\n' >"$work/two.in"
printf '[4i32, 5i32, 6i32]\n' >"$work/one.in"

"$futhorc" c "$p" -o "$work/p" || fail "compiling"
check "literal typed by its parameter" 0 "5i64" "$p" "add 2 3"
check "suffixed literal" 0 "[3f32, 6f32]" "$p" "scale 1.5f32 [2, 4]"
check "literal alone" 0 "3i32" "$p" "3"
check "array literal alone" 0 "[1.5f64, 2f64]" "$p" "[1.5, 2]"
check "empty array" 0 "empty([0]f32)" "$p" "scale 2 (empty([0]f32))"
check "tuple result" 0 "(3i64, [0i32, 1i32, 2i32])" "$p" "pair 3"
check "uncurrying a tuple" 0 "6i64" "$p" "sum_pair (pair 3)"
check "uncurrying a written tuple" 0 "7i64" "$p" "add (3, 4)"
check "let" 0 "12i64" "$p" "let x = add 1 2 in add x 9"
check "nested let" 0 "5i64" "$p" "let x = 2 in let y = 3 in add x y"
check "tuple let" 0 "[0i32, 1i32]" "$p" "let (n, xs) = pair 2 in xs"
check "record of the server (opaque)" 0 "6i64" "$p" "count_true (rec 3) -- a comment"
check "script record" 0 "{a=3i64, b=(1i32, true)}" "$p" "{a = add 1 2, b = (1, true)}"
check "field projection" 0 "true" "$p" "{a = add 1 2, b = (1, true)}.b.1"
check "entry of no arguments" 0 "7i32" "$p" "seven"
check "chained lets share one in" 0 "6i64" "$p" "let x = add 1 2 let y = add x 0 in add x y"
check "a record argument, fields by name" 0 "5i64" "$p" "count_true {b = [true, false], a = 4}"
check "nested tuple arguments" 0 "6i64" "$p" "sum_pair (3, ([1, 2]))"
check "a declared record result" 0 "{a=2i64, b=[true, true]}" "$p" "rec 2"
check "a field of a declared record result" 0 "[true, true]" "$p" "(rec 2).b"
check "a compiled program's results are flat" 0 "(2i64, [true, true])" "$work/p" "rec 2"
check "parentheses" 0 "10i64" "$p" "add (add 1 2) (add 3 4)"
check "\$loaddata of one value" 0 "5i32" "$p" "at (\$loaddata \"$work/one.in\") 1"
check "\$loaddata of two values" 0 "[1.5f32, 3f32]" "$p" "scale (\$loaddata \"$work/two.in\")"
check "\$loadbytes" 0 "$(wc -c <"$p")i64" "$p" "bytes (\$loadbytes \"$p\")"
check "-C for builtins" 0 "6i32" -C "$work" "$p" 'at ($loaddata "one.in") 2'
check "\$store then \$restore" 0 "[2f32, 4f32]" "$p" -e "\$store \"$work/s.bin\" (scale 2 [1, 2])" \
    -e "\$restore \"[]f32\" \"$work/s.bin\""
check "-e in order, the last printed" 0 "2i64" "$p" -e "add 1 2" -e "add 1 1"
printf 'let x = add 20 1 -- comment\nin\n  add x x\n' >"$work/e.fs"
check "-f" 0 "42i64" "$p" -f "$work/e.fs"
got=$("$futhorc" script -b "$p" "pair 2" | od -An -tx1 | tr -d ' \n')
want=$(printf '2i64 [0i32, 1i32]' | "$futhorc" dataset -b 2>/dev/null | od -An -tx1 | tr -d ' \n')
[ -n "$got" ] && [ "$got" = "$want" ] && pass || fail "binary output: $got, want $want"
check "a compiled program" 0 "5i64" "$work/p" "add 2 3"
check "multicore backend" 0 "(3i64, [0i32, 1i32, 2i32])" --backend=multicore "$p" "pair 3"

printf 'def twice (x: i64) = 2 * x\nentry main (x: i64) = x\n' >"$work/d.fut"
check "--entry-point makes a def callable" 0 "8i64" --pass-compiler-option=--entry-point=twice "$work/d.fut" "twice 4"
check "a def is no entry point without it" 1 "" "$work/d.fut" "twice 4"
check "--entry-point of no definition" 1 "" --pass-compiler-option=--entry-point=nope "$work/d.fut" "main 1"
err "--entry-point of no definition" "no top-level definition named \"nope\""

check "syntax error" 1 "" "$p" "add (1 2"
err "syntax error" "expression:1:8: expected '\)' or ','"
check "unknown entry" 1 "" "$p" "nope 1"
err "unknown entry" "Unknown entry point: nope"
check "arity" 1 "" "$p" "add 1"
err "arity" "add takes 2 arguments, but 1 was given"
check "wrong literal" 1 "" "$p" "at 1 2"
err "wrong literal" "expected a value of type \[\]i32"
check "run-time error" 1 "" "$p" "at [1, 2] 5"
err "run-time error" "Index \[5\] out of bounds"
check "unknown builtin" 1 "" "$p" '$frobnicate "x"'
err "unknown builtin" "unknown builtin \\\$frobnicate"
check "missing file" 1 "" "$p" "at (\$loaddata \"$work/none.in\") 0"
err "missing file" "none.in"
# inside a tuple (futhark-benchmarks' script inputs): the builtin's own
# message, not a syntax error at the position after it
check "missing file in a tuple" 1 "" "$p" "sum_pair ((3i64, \$loaddata \"$work/none.in\"))"
err "missing file in a tuple" "^futhorc script: \\\$load: cannot read .*none\.in: No such file"
check "no expression" 1 "" "$p"
printf 'entry f (x: i32) : bool = x\n' >"$work/bad.fut"
check "a program that does not compile" 1 "" "$work/bad.fut" "f 1"
err "a program that does not compile" "compiling .*bad.fut failed"

echo "script: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
