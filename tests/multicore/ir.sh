#!/usr/bin/env bash
# The shape of the multicore backend's vector code (LLVM IR of
# `futhorc dump --stage=llvm`, for an AVX-512 CPU: 16 floats a register),
# where tests/multicore's programs check only results: a while loop's
# lockstep counter is one scalar (its comparison with the limit is one
# per iteration, not one per lane), and a map whose body loops over
# registers alone runs four registers' worth of iterations at once, one
# whose loop reads memory two; integer division is a vector operation. Ends with "vector: N passed, N failed";
# exits 1 if anything failed.
#
#   usage: tests/multicore/ir.sh      (FUTHORC=path selects another compiler)
suite=vector
source "$(dirname "$0")/../lib.sh"

# ir NAME PROG: the LLVM IR of PROG (a file in $work) in $work/NAME.ll.
ir() {
    "$futhorc" dump --stage=llvm --target-cpu=x86-64-v4 "$work/$2" >"$work/$1.ll" 2>"$work/err" ||
        { fail "$1: futhorc dump failed:"; cat "$work/err"; }
}
# has NAME WANT REGEX: whether $work/NAME.ll matches REGEX (WANT yes or no).
has() {
    local n
    n=$(grep -cE "$3" "$work/$1.ll")
    if { [ "$2" = yes ] && [ "$n" -gt 0 ]; } || { [ "$2" = no ] && [ "$n" -eq 0 ]; }; then pass; else
        fail "$1: $n lines match '$3' (want $2)"; fi
}

cat >"$work/orbit.fut" <<'FUT'
entry main (n: i64) : [n]i32 =
  map (\i -> let c = f32.i64 i / f32.i64 n * 2.5 - 2
             let (_, k) = loop (z, k) = (0f32, 0i32) while k < 50 && z * z < 4 do (z * z + c, k + 1)
             in k) (iota n)
FUT
ir orbit orbit.fut
has orbit yes 'icmp slt i32 %[^,]*, 50$'
has orbit no 'icmp slt <[0-9]+ x i32> %[^,]*, splat \(i32 50\)'
has orbit yes '<64 x float>'

# The step differs between lanes: the counter stays a vector.
cat >"$work/steps.fut" <<'FUT'
entry main (n: i64) : [n]i32 =
  map (\i -> let (_, k) = loop (x, k) = (i, 0i32) while k < 50 && x > 0 do (x / 2, k + i32.i64 (i % 3))
             in k) (iota n)
FUT
ir steps steps.fut
has steps yes 'icmp slt <[0-9]+ x i32> %[^,]*, splat \(i32 50\)'

# An inner loop that reads memory (a gather: each lane its own element of
# xs), and one that reads an element for all lanes: two registers' worth.
cat >"$work/gather.fut" <<'FUT'
entry main (xs: []f32) : []f32 =
  let n = length xs
  in map (\i -> loop acc = 0f32 for j < 8 do acc + xs[(i * 7 + j * 3) % n]) (iota n)
FUT
ir gather gather.fut
has gather yes '<32 x float>'
has gather no '<64 x float>'
cat >"$work/sum.fut" <<'FUT'
entry main (xs: []f32) : []f32 = map (\x -> loop acc = 0f32 for j < length xs do acc + x * xs[j]) xs
FUT
ir sum sum.fut
has sum yes '<32 x float>'
has sum no '<64 x float>'

# Integer division and modulo are vector operations (a constant divisor a
# multiplication), not one call of the runtime's per lane, which made a
# program of a few nested loops over i % k take seconds to compile.
cat >"$work/mod.fut" <<'FUT'
entry main (n: i64) : [n]i64 = map (\i -> loop acc = i for j < i % 5 do acc / 3 + (acc + j) % (i % 7 + 1)) (iota n)
FUT
ir mod mod.fut
has mod yes 'srem <[0-9]+ x i64>'
has mod yes 'sdiv <[0-9]+ x i64>|mul <[0-9]+ x i64>'
has mod no 'rt_mod|rt_div'

echo "vector: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
