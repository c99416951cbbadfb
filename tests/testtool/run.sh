#!/usr/bin/env bash
# What `futhorc test` reports about the programs it cannot run: -v lists
# every skipped file with its reason (no test block, disable, script input
# or auto output), the skipped count includes them, and a syntax error in
# a test block is reported at its own line and column. Ends with
# "testtool: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/testtool/run.sh      (FUTHORC=path selects another compiler)
suite=testtool
source "$(dirname "$0")/../lib.sh"

# expect NAME FILE PATTERN: FILE has a line matching the extended regex.
expect() {
    if grep -Eq -- "$3" "$2"; then pass; else fail "$1: no line /$3/ in:"; sed 's/^/    /' "$2"; fi
}

d=$work/progs
mkdir -p "$d"
printf 'entry main (x: i32) = x + 1\n' >"$d/no_block.fut"
printf -- '-- ==\n-- tags { disable }\n-- input { 1 } output { 1 }\nentry main (x: i32) = x\n' >"$d/disabled.fut"
# tagged no_c: left out on the c backend (as Futhark's runner does), run on others
printf -- '-- ==\n-- tags { no_c }\n-- input { 1 } output { 5 }\nentry main (x: i32) = x + 1\n' >"$d/not_on_c.fut"
printf -- '-- ==\n-- input { 1 } output { 2 }\nentry main (x: i32) = x + 1\n' >"$d/good.fut"
cat >"$d/bad_value.fut" <<'FUT'
-- A program.
-- ==
-- input { 1 }
-- output { 2 }
-- input { [1, 2,
--          3x] }
-- output { 1 }
entry main (x: i32) = x + 1
FUT
cat >"$d/bad_case.fut" <<'FUT'
-- ==
-- input { 1 } output { 2 }
--
-- "named" inptu { 2 }
entry main (x: i32) = x + 1
FUT

"$futhorc" test -v "$d" >"$work/v.out" 2>&1
expect "-v: no test block" "$work/v.out" "^SKIP $d/no_block.fut: no test block$"
expect "-v: disabled" "$work/v.out" "^SKIP $d/disabled.fut: tagged disable, notest or no_c$"
expect "-v: tagged no_c" "$work/v.out" "^SKIP $d/not_on_c.fut: tagged disable, notest or no_c$"
expect "-v: passing case" "$work/v.out" "^PASS $d/good.fut"
expect "value error at its line and column" "$work/v.out" \
    "^FAIL $d/bad_value.fut: test block at line 6, column 13: malformed input values: malformed literal '3x'$"
expect "case error at its line and column" "$work/v.out" \
    "^FAIL $d/bad_case.fut: test block at line 4, column 18: expected a case"
expect "counts" "$work/v.out" "^1 passed, 2 failed, 3 skipped$"

"$futhorc" test "$d" >"$work/q.out" 2>&1
if grep -q "^SKIP\|^PASS" "$work/q.out"; then fail "without -v, skipped files and passes are listed"; else pass; fi
expect "counts without -v" "$work/q.out" "^1 passed, 2 failed, 3 skipped$"

"$futhorc" test --backend=multicore "$d/not_on_c.fut" >"$work/mc.out" 2>&1
expect "no_c runs on multicore (and fails: its output is wrong)" "$work/mc.out" "^0 passed, 1 failed$"

echo "testtool: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
