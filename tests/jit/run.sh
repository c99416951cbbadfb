#!/usr/bin/env bash
# futhorc run (the multicore backend in memory through LLVM's ORC JIT):
# results of entry points on stdin's values, options that go to the
# program, run-time and compile-time errors, multicore's options refused
# by the other backends, and an executable's --pin-threads. Ends with "jit: N passed, N failed";
# exits 1 if anything failed.
#
#   usage: tests/jit/run.sh      (FUTHORC=path selects another compiler)
suite=jit
source "$(dirname "$0")/../lib.sh"

# check NAME WANT_STATUS WANT_OUT STDIN ARGS...: runs futhorc run ARGS with
# STDIN and compares the exit status and standard output.
check() {
    local name=$1 want_rc=$2 want=$3 input=$4
    shift 4
    expect_run "$name" "$want_rc" "$want" "$futhorc" run "$@" < <(printf '%s' "$input")
}

cat >"$work/p.fut" <<'FUT'
entry main (xs: []f32) (k: i64) : ([]f32, f32) =
  let ys = map (\x -> x * 2 + 1) xs in (ys, reduce (+) 0 ys + f32.i64 k)
entry count (n: i64) : i64 = reduce (+) 0 (map (\i -> i % 7) (iota n))
entry at (xs: []i32) (i: i64) : i32 = xs[i]
FUT
check "main" 0 "$(printf '[3f32, 5f32, 7f32]\n20f32')" "[1, 2, 3] 5" "$work/p.fut"
check "entry -e" 0 "2999997i64" "1000000" "$work/p.fut" -e count
check "threads" 0 "2999997i64" "1000000" "$work/p.fut" -e count --num-threads 3
# Binary output (-b) as the executable of futhorc multicore writes it.
"$futhorc" multicore "$work/p.fut" -o "$work/p" || fail "futhorc multicore p.fut"
want=$(printf '10' | "$work/p" -e count -b | od -An -tx1)
got=$(printf '10' | "$futhorc" run "$work/p.fut" -e count -b | od -An -tx1)
if [ -n "$want" ] && [ "$got" = "$want" ]; then pass; else
    fail "binary output: $got (want $want)"; fi
check "compiler option" 0 "2999997i64" "1000000" --verify "$work/p.fut" -e count
# A failure at run time: the message, status 1.
printf '[1, 2] 5' | "$futhorc" run "$work/p.fut" -e at >/dev/null 2>"$work/err"
if [ $? = 1 ] && grep -q "Index \[5\] out of bounds" "$work/err"; then pass; else
    fail "run-time error:"; cat "$work/err"; fi
# A program with a type error, and no source file at all.
printf 'entry main (x: i32) : bool = x\n' >"$work/bad.fut"
check "type error" 1 "" "" "$work/bad.fut"
grep -q "error" "$work/err" || fail "no message for a type error"
check "no source" 1 "" "" --verify
check "no -o" 1 "" "" -o x "$work/p.fut"
# The multicore backend's options, given to another backend: a clear error.
"$futhorc" c --target-cpu=x86-64-v2 "$work/p.fut" -o "$work/c" 2>"$work/err"
if [ $? = 1 ] && grep -q "options of multicore" "$work/err"; then pass; else
    fail "futhorc c --target-cpu:"; cat "$work/err"; fi
# A CPU LLVM does not know: futhorc's message, status 1.
# --pin-threads: while the executable runs, its worker is on one CPU and
# its main thread keeps the CPUs it started with (Linux, 2 CPUs or more).
if [ -r /proc/self/status ] && [ "$(nproc)" -ge 2 ]; then
    cat >"$work/busy.fut" <<'FUT'
entry main (n: i64) (r: i64) : i64 =
  loop acc = 0 for k < r do acc + reduce (+) 0 (map (\i -> (i * k) % 7) (iota n))
FUT
    "$futhorc" multicore "$work/busy.fut" -o "$work/busy" || fail "futhorc multicore busy.fut"
    echo "1000000 1000000" | "$work/busy" --pin-threads --num-threads 2 >/dev/null &
    pid=$!
    mine=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
    main="" one=""
    for _ in $(seq 50); do
        sleep 0.1
        main=$(grep Cpus_allowed_list "/proc/$pid/status" 2>/dev/null | cut -f2)
        one=$(cat /proc/$pid/task/*/status 2>/dev/null | grep Cpus_allowed_list | cut -f2 | grep -Ex '[0-9]+' | head -1)
        [ -n "$one" ] && break
    done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [ -n "$one" ] && [ "$main" = "$mine" ]; then pass; else
        fail "--pin-threads: a worker on CPUs '$one', the main thread on '$main' (started on '$mine')"; fi
fi
"$futhorc" multicore --target-cpu=nosuchcpu "$work/p.fut" -o "$work/m" 2>"$work/err"
if [ $? = 1 ] && grep -q "is --target-cpu a CPU it knows" "$work/err"; then pass; else
    fail "an unknown --target-cpu:"; cat "$work/err"; fi
echo "jit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
