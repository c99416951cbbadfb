#!/usr/bin/env bash
# The compiler under AddressSanitizer (with LeakSanitizer) and UBSan: builds
# build-san/bin/futhorc (`make san-compiler`, as check-sanitize) and runs it over every test
# program, error tests included, up to the C and the OpenCL code
# (`dump --stage=c` and `--stage=opencl`, which run every pass and backend
# without compiling the result). Each run must leave no sanitizer report:
# no leak (also on error paths, which leave the checker with longjmp), no
# undefined behaviour (such as a NULL pointer passed to memcpy for no
# bytes), no bad memory access. Ends with "sanitize: N passed, N failed";
# exits 1 if anything failed.
#
#   usage: tests/sanitize/run.sh [FILE|DIR...]   (default: all test programs)
suite=sanitize
source "$(dirname "$0")/../lib.sh"

if ! make -s -j"$(nproc)" san-compiler >"$work/build.log" 2>&1; then
    fail "building build-san/bin/futhorc:"
    tail -20 "$work/build.log"
    echo "sanitize: $passed passed, $failed failed"
    exit 1
fi

# LeakSanitizer cannot run everywhere (under ptrace, in some containers):
# without it only ASan's and UBSan's other checks apply.
leaks=1
if ! ASAN_OPTIONS=detect_leaks=1 build-san/bin/futhorc check /dev/null >/dev/null 2>"$work/probe"; then
    if grep -q LeakSanitizer "$work/probe"; then
        echo "sanitize: note: LeakSanitizer does not run here; leaks are not checked"
        leaks=0
    fi
fi

# run_one FILE: compiles FILE to C and to OpenCL with the sanitized compiler
# and prints "FAIL FILE" and the start of any sanitizer report (compile
# errors are expected: tests/errors). Runs in parallel under xargs.
run_one() {
    local f=$1 stage logs
    logs=$(mktemp -d "$SAN_WORK/run.XXXXXX")
    for stage in c opencl; do
        ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=$SAN_LEAKS" \
            UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1" \
            build-san/bin/futhorc dump --stage=$stage "$f" >/dev/null 2>&1
        if ls "$logs" | grep -q .; then
            echo "FAIL $f (--stage=$stage):"
            cat "$logs"/* | grep -v '^$' | head -12 | sed 's/^/    /'
            return
        fi
    done
    echo "ok $f"
}
export -f run_one
export SAN_WORK=$work SAN_LEAKS=$leaks

[ $# -gt 0 ] || set -- tests/programs tests/errors tests/structure tests/fusion tests/gpu examples bench
find "$@" -name '*.fut' | sort | xargs -P "$(nproc)" -I{} bash -c 'run_one {}' >"$work/results"
passed=$(grep -c '^ok ' "$work/results")
failed=$(grep -c '^FAIL ' "$work/results")
grep -v '^ok ' "$work/results" | sed "s/^FAIL /$suite: FAIL /"
echo "sanitize: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
