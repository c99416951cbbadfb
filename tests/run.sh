#!/usr/bin/env bash
# The `make check` driver: runs each cmocka unit test binary given as an
# argument, then `futhorc test` over the test program directories on every
# backend and the other suites (the fuzz targets and the compiler under
# sanitizers among them), showing their output as it comes; prints
# a line "== GROUP: N passed, N failed (S s)" as each group finishes and
# ends with one line "N passed, N failed" totalling all of them. Exits 1 if
# any test failed or any binary crashed or could not run.
#
#   bash tests/run.sh build/tests/test_a build/tests/test_b ...
#
# FUTHORC selects the compiler (default bin/futhorc). FUTHORC_SANITIZE
# (set by `make check-sanitize` to its -fsanitize flags) builds every
# generated program with those flags too, at -O0 with $SAN_CC when set,
# and makes any sanitizer report fail the program that made it (exit
# status 86, which no test expects); leaks inside the OpenCL
# implementation are suppressed (tests/lsan.supp), and an allocation too
# large for ASan's allocator returns NULL, as malloc does, so that the
# program reports it (tests/programs/errors_runtime/alloc_overflow.fut).
cd "$(dirname "$0")/.." || exit 1
export FUTHORC=${FUTHORC:-bin/futhorc}
if [ -n "${FUTHORC_SANITIZE:-}" ]; then
    export CC=${SAN_CC:-${CC:-cc}}
    export CFLAGS="-O0 -g $FUTHORC_SANITIZE"
    export FUTHORC_TEST_CFLAGS="$FUTHORC_SANITIZE" # test_backend's programs
    # ASan fills all of each allocation with 0xbe, not only its first 4 KiB:
    # code that reads memory it never wrote then goes visibly wrong (ASan
    # does not report such reads itself).
    export ASAN_OPTIONS="exitcode=86:detect_leaks=1:halt_on_error=1:allocator_may_return_null=1:max_malloc_fill_size=2147483648"
    export UBSAN_OPTIONS="exitcode=86:halt_on_error=1:print_stacktrace=1"
    export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
    # OpenCL programs run on PoCL's single-threaded basic device: at the
    # exit of a process whose PoCL worker threads are ending, LeakSanitizer's
    # thread tracer now and then crashes (google/sanitizers issue 1353).
    # make check runs them on the pthread device. Programs that fail only
    # so are run again (lsan_retry).
    export POCL_DEVICES=${POCL_DEVICES:-basic}
fi

passed=0
failed=0
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT

# Adds the sum of the numbers that sed script $1 extracts from the log.
count() { sed -n "$1" "$log" | awk '{ s += $1 } END { print s + 0 }'; }

# Prints the line of a finished group: its counts and seconds since $2.
group_done() {
    echo "== $1: $3 passed, $4 failed ($((SECONDS - $2)) s)"
    passed=$((passed + $3))
    failed=$((failed + $4))
}

# The unit test binaries: one group.
unit_tests() {
    local start=$SECONDS p=0 f=0 tp tf rc t
    for t in "$@"; do
        "$t" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        tp=$(count 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p')
        tf=$(count 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p')
        if [ "$rc" -ne 0 ] && [ "$tf" -eq 0 ]; then
            echo "$t: exited with status $rc"
            tf=1
        fi
        p=$((p + tp))
        f=$((f + tf))
    done
    group_done "unit tests" "$start" "$p" "$f"
}

# Runs group $1's command, whose last summary line is "[word: ]N passed,
# N failed", and adds its counts. A group whose one-word name is in
# FUTHORC_SKIP_GROUPS (words separated by spaces) is left out, saying so.
summarised() {
    local name=$1 start=$SECONDS rc summary p f
    shift
    if [[ " ${FUTHORC_SKIP_GROUPS:-} " == *" $name "* ]]; then
        echo "== $name: skipped (FUTHORC_SKIP_GROUPS)"
        return
    fi
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    summary=$(grep -E '^([a-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed 's/^[a-z]*: //')
    if [ -z "$summary" ]; then
        echo "$name: exited with status $rc and no summary"
        group_done "$name" "$start" 0 1
        return
    fi
    p=$(echo "$summary" | sed 's/ passed.*//')
    f=$(echo "$summary" | sed 's/.* \([0-9]*\) failed.*/\1/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$name: exited with status $rc"
        f=1
    fi
    [ -n "${FUTHORC_SANITIZE:-}" ] && [ "$f" -gt 0 ] && lsan_retry "$@"
    group_done "$name" "$start" "$p" "$f"
}

# Under the sanitizers, LeakSanitizer's own thread tracer now and then
# crashes at a program's exit ("Tracer caught signal 11", google/sanitizers
# issue 1353): not a report about the program. The test programs of a
# `futhorc test` group ($@, whose directory arguments are dropped) that
# failed only so are run once more; their failed runs count as the rerun
# says. Adjusts p and f of summarised.
lsan_retry() {
    local files=() args=() x k out rf
    mapfile -t files < <(awk '/^FAIL / { file = $2; sub(/,$/, "", file) }
        /LeakSanitizer has encountered a fatal error/ && file != "" { print file; file = "" }' "$log" | sort -u)
    [ ${#files[@]} -gt 0 ] || return 0
    k=0
    for x in "${files[@]}"; do
        [ -f "$x" ] || return 0
        k=$((k + $(grep -c "^FAIL $x," "$log")))
    done
    for x in "$@"; do [ -d "$x" ] || args+=("$x"); done
    echo "rerunning after LeakSanitizer's own crash: ${files[*]}"
    out=$("${args[@]}" "${files[@]}" 2>&1)
    echo "$out"
    rf=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1 | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    [ -n "$rf" ] || return 0
    # Every failed run of these files is replaced by the rerun's failures.
    f=$((f - k + rf))
    p=$((p + k - (rf < k ? rf : k)))
}

[ $# -gt 0 ] && unit_tests "$@"

# The programs of the two backends' groups are compiled at -O1 unless
# CFLAGS says otherwise: their results are what is tested, and -O1 takes a
# third less time than -O3, which tests/compose keeps testing.
test_cflags=${CFLAGS:--O1}
# Under the sanitizers bench/ is left out: its benchmark-sized data sets
# take minutes at -O0 with ASan (bench/tune/mapscan.fut ran past the 60 s
# limit), and make check runs them.
bench_dir=bench
[ -n "${FUTHORC_SANITIZE:-}" ] && bench_dir=
dirs=()
for d in tests/programs tests/irregular tests/errors tests/structure tests/fusion tests/gpu tests/multicore examples $bench_dir; do
    [ -d "$d" ] && dirs+=("$d")
done
[ ${#dirs[@]} -gt 0 ] && summarised "C backend" env CFLAGS="$test_cflags" "$FUTHORC" test -j "$(nproc)" --pass-compiler-option=--verify "${dirs[@]}"
# The same programs through the multicore backend (LLVM, in the
# compiler's process; no C compiler but the linker), under
# FUTHORC_SANITIZE instrumented by LLVM's AddressSanitizer pass.
mc=(--backend=multicore)
[ -n "${FUTHORC_SANITIZE:-}" ] && mc+=(--pass-compiler-option=--sanitize=address)
[ ${#dirs[@]} -gt 0 ] && summarised "multicore backend" "$FUTHORC" test -j "$(nproc)" "${mc[@]}" --pass-compiler-option=--verify "${dirs[@]}"
# The parallel loops' own tests on one thread and on more threads than
# cores (tasks then interleave in more orders).
for t in 1 7; do
    summarised "multicore, $t threads" "$FUTHORC" test -j "$(nproc)" "${mc[@]}" -p --num-threads=$t tests/multicore
done
# Threads pinned to CPUs (as many threads as cores: no pinning past them).
summarised "multicore, pinned" "$FUTHORC" test -j "$(nproc)" "${mc[@]}" -p --pin-threads tests/multicore
# Vector code of 8 lanes, as for CPUs without AVX-512 (x86-64-v2 runs on
# any machine that builds futhorc).
summarised "multicore, 8 lanes" "$FUTHORC" test -j "$(nproc)" "${mc[@]}" --pass-compiler-option=--target-cpu=x86-64-v2 tests/multicore
# Without bounds checks, whose absence changes which loops vector code
# makes (a jammed loop's code once read a freed table of variables).
summarised "multicore, unsafe" "$FUTHORC" test -j "$(nproc)" "${mc[@]}" --pass-compiler-option=--unsafe \
    tests/multicore/jam*.fut tests/multicore/hist.fut
# The shape of vector code: uniform counters, registers' worth of lanes.
summarised "vector code" bash tests/multicore/ir.sh
# Random programs: the multicore backend's results against the C backend's.
summarised "random programs" bash tests/multicore/random.sh
# The same programs through the OpenCL backend, on PoCL (a CPU OpenCL
# device) or whatever OpenCL device is installed; results must agree with
# the expected outputs exactly as on the C backend.
cl_dirs=()
for d in tests/programs tests/irregular tests/structure tests/fusion tests/gpu tests/multicore examples $bench_dir; do
    [ -d "$d" ] && cl_dirs+=("$d")
done
if ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
    summarised "OpenCL backend" env CFLAGS="$test_cflags" "$FUTHORC" test -j "$(nproc)" --backend=opencl --pass-compiler-option=--verify "${cl_dirs[@]}"
    # Multi-versioned code: small test inputs take the intra-group
    # versions (rows of 32 or more) or the distributed ones by default;
    # every threshold at 0 takes the outer versions, every threshold at
    # 2^40 the distributed ones. Not under the sanitizers: the versions'
    # host code is the same runtime's, and their kernels run in PoCL,
    # which the sanitizers do not see.
    if [ -z "${FUTHORC_SANITIZE:-}" ]; then
        summarised "OpenCL, outer versions" env CFLAGS="$test_cflags" "$FUTHORC" test -j "$(nproc)" --backend=opencl \
            -p --default-threshold=0 tests/gpu
        summarised "OpenCL, distributed versions" env CFLAGS="$test_cflags" "$FUTHORC" test -j "$(nproc)" \
            --backend=opencl -p --default-threshold=1099511627776 tests/gpu
    fi
    summarised "OpenCL runtime" bash tests/opencl/run.sh
    summarised autotune bash tests/autotune/run.sh
elif [ -n "${FUTHORC_REQUIRE_OPENCL:-}" ]; then
    echo "opencl: no OpenCL platform installed (FUTHORC_REQUIRE_OPENCL is set)"
    failed=$((failed + 1))
else
    echo "opencl: SKIPPED: no OpenCL platform installed (apt-get install pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers)"
fi
# Not under the sanitizers: its large cases (numpy-made) take minutes at
# -O0 with ASan, and its programs' code is of the kinds the backend groups
# run there.
[ -z "${FUTHORC_SANITIZE:-}" ] && summarised compose bash tests/compose/run.sh
summarised robustness bash tests/robustness.sh
summarised server bash tests/server/run.sh
summarised "server (multicore)" bash tests/server/run.sh multicore
summarised jit bash tests/jit/run.sh
summarised library bash tests/library/run.sh
summarised install bash tests/install.sh
summarised pkg bash tests/pkg/run.sh
summarised "test runner" bash tests/testtool/run.sh
summarised script bash tests/script/run.sh
summarised literate bash tests/literate/run.sh
summarised repl bash tests/repl/run.sh
summarised doc bash tests/doc/run.sh
summarised bench bash tests/bench/run.sh
summarised deep bash tests/deep/run.sh
# Already sanitizer runs: the compiler built with the sanitizers over every
# program, and the fuzz targets (build/fuzz, which `make check` builds):
# regression inputs, then 15 s of fuzzing each, two at a time.
if [ -z "${FUTHORC_SANITIZE:-}" ]; then
    summarised sanitize bash tests/sanitize/run.sh
    summarised fuzz bash tests/fuzz/run.sh --check
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
