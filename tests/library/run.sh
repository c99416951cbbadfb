#!/usr/bin/env bash
# Tests of `futhorc c|multicore|opencl --library`: for each backend, makes libraries of tests/library/arrays.fut and opaque.fut,
# checks their headers (C and C++) and JSON manifests, builds the C
# applications api_test.c, contexts_test.c (many contexts created and
# freed) and opaque_test.c against them under AddressSanitizer (leak
# checking on) and runs them, then builds Python
# modules from the libraries with futhark-ffi 0.16 (pip-installed into a
# virtual environment under build/library) and runs ffi_test.py and
# ffi_opaque_test.py. The OpenCL library of arrays.fut also runs
# cl_test.c (its configuration calls) on the installed OpenCL device (PoCL
# in CI). The multicore libraries link the object of the program's code
# beside their C source. PoCL and the LLVM it
# uses keep memory until the process ends, so leak reports whose stack
# passes through libpocl or libOpenCL are suppressed (tests/lsan.supp); our own
# leaks are still reported. Ends with "library: N passed, N failed"; exits
# 1 on failure.
#
#   bash tests/library/run.sh [c|multicore|opencl]...   (from anywhere;
#                        default all; FUTHORC overrides bin/futhorc)

cd "$(dirname "$0")/../.." || exit 1
FUTHORC=${FUTHORC:-bin/futhorc}
CC=${CC:-cc}
OUT=build/library
FFI_VERSION=0.16
passed=0
failed=0
mkdir -p "$OUT"

pass() { echo "ok $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# Runs a test program whose output has "ok ..." and "FAIL ..." lines; adds
# them up, and counts a crash or sanitizer report as one more failure.
counted() {
    local name=$1 log=$OUT/$1.log
    shift
    "$@" >"$log" 2>&1
    local rc=$? p f
    cat "$log"
    p=$(grep -c '^ok ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then fail "$name: exited with status $rc"; fi
    if grep -q 'Sanitizer' "$log"; then fail "$name: sanitizer report"; fi
}

finish() {
    echo "library: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# The virtual environment with futhark-ffi from PyPI, kept between runs;
# false after counting a failure.
ffi_venv() {
    VENV=$OUT/venv
    "$VENV/bin/python" -c "import futhark_ffi, numpy" 2>/dev/null && return 0
    rm -rf "$VENV"
    if ! python3 -m venv "$VENV" >"$OUT/venv.log" 2>&1; then
        cat "$OUT/venv.log"
        fail "python3 -m venv (is python3-venv installed?)"
        return 1
    fi
    if ! "$VENV/bin/pip" install --disable-pip-version-check -q --timeout 30 "futhark-ffi==$FFI_VERSION" >>"$OUT/venv.log" 2>&1; then
        tail -n 5 "$OUT/venv.log"
        fail "pip install futhark-ffi==$FFI_VERSION: cannot reach PyPI or install it"
        rm -rf "$VENV"
        return 1
    fi
}

# Every test of the library that `futhorc $1 --library` makes of
# tests/library/$2.fut; $3 are its C test programs, $4 its futhark-ffi test.
test_library() {
local backend=$1 prog=$2 tests=$3 pytest=$4 dir=$OUT/$1 libs=-lm
[ "$backend" = opencl ] && libs="-lOpenCL -lm"
local lib=$dir/$prog
# A multicore library's code is the object beside its C source.
[ "$backend" = multicore ] && libs="$lib.o -lpthread -lm"
mkdir -p "$dir"
rm -f "$lib".h "$lib".c "$lib".json "$lib".o
if "$FUTHORC" "$backend" --library tests/library/$prog.fut -o "$lib" && [ -s "$lib.h" ] && [ -s "$lib.c" ] && [ -s "$lib.json" ]; then
    pass "futhorc $backend --library $prog.fut writes .h, .c and .json"
else
    fail "futhorc $backend --library $prog.fut writes .h, .c and .json"
    return
fi

# The header alone, in C and in C++.
if echo "#include \"$prog.h\"" | $CC -std=c99 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$dir" -x c -; then
    pass "$backend: $prog.h compiles alone as C99"
else fail "$backend: $prog.h compiles alone as C99"; fi
if command -v c++ >/dev/null; then
    if echo "#include \"$prog.h\"" | c++ -Wall -Wextra -Werror -fsyntax-only -I"$dir" -x c++ -; then
        pass "$backend: $prog.h compiles as C++"
    else fail "$backend: $prog.h compiles as C++"; fi
fi

# The manifest: Futhark's schema, and every function it names is declared.
if python3 - "$lib.json" "$lib.h" "$backend" "$prog" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
h = open(sys.argv[2]).read()
declared = set(re.findall(r'\b(futhark_\w+)\(', h))
assert set(m) <= {"backend", "version", "entry_points", "types"} and m["backend"] == sys.argv[3], m.keys()
for name, e in m["entry_points"].items():
    assert e["cfun"] in declared, e["cfun"]
    assert all(set(i) <= {"name", "type", "unique"} for i in e["inputs"])
    assert all(set(o) <= {"type", "unique"} for o in e["outputs"])
    for x in e["inputs"] + e["outputs"]:
        assert x["type"] in m["types"] or re.fullmatch(r"[iuf](8|16|32|64)|bool", x["type"]), x
for name, t in m["types"].items():
    assert t["ctype"].startswith("struct futhark_") and t["ctype"].endswith(" *"), t
    assert set(t["ops"].values()) <= declared, t
    if t["kind"] == "array":
        assert t["rank"] == name.count("[]") and name.endswith(t["elemtype"]), name
        assert {"free", "shape", "values", "new"} <= set(t["ops"]), t
    else:
        assert t["kind"] == "opaque" and set(t["ops"]) == {"free", "store", "restore"}, t
        r = t.get("record")
        assert not r or (r["new"] in declared and {f["project"] for f in r["fields"]} <= declared), r
        assert not r or all(f["type"] in m["types"] or "[]" not in f["type"] for f in r["fields"]), r
assert ("futhark_context_config_set_device" in declared) == (sys.argv[3] == "opencl")
if sys.argv[4] == "arrays":
    assert m["entry_points"]["stats"]["outputs"][2]["type"] == "[]f64"
else:
    assert m["entry_points"]["norm2"]["inputs"][0]["type"] == "point"
    assert [f["name"] for f in m["types"]["point"]["record"]["fields"]] == ["x", "y"]
    assert [o["type"] for o in m["entry_points"]["counted"]["outputs"]] == ["i32", "tup2_i64_arr1d_i64"]
    assert "record" not in m["types"]["nested"] and "record" not in m["types"]["arr1d_tup2_i32_f32"]
PY
then pass "$backend: $prog.json follows the schema and names declared functions"
else fail "$backend: $prog.json follows the schema and names declared functions"; fi

# The C applications under AddressSanitizer.
local SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
local env="ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1"
env="$env LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
for t in $tests; do
    if $CC -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $SAN -I"$dir" -o "$dir/$t" tests/library/$t.c "$lib.c" $libs \
        2>"$dir/cc.log"; then
        pass "$backend: $t.c compiles and links with the library"
        counted "$backend-$t" env $env "$dir/$t" "$dir" "$contexts"
    else
        cat "$dir/cc.log"
        fail "$backend: $t.c compiles and links with the library"
    fi
done

# futhark-ffi from PyPI.
ffi_venv || return
local FFI=$dir/ffi-$prog
rm -rf "$FFI"
mkdir -p "$FFI"
cp "$lib".h "$lib".c "$lib".json "$FFI"/
# (Without the sanitizers that make check-sanitize puts in CFLAGS: Python
# cannot load a module built with them. The multicore library's object
# goes to the linker through LDFLAGS, which the build honours.)
local ldflags=
[ "$backend" = multicore ] && cp "$lib.o" "$FFI"/ && ldflags="$PWD/$FFI/$prog.o -lpthread"
if (cd "$FFI" && env -u CFLAGS LDFLAGS="$ldflags" ../../venv/bin/build_futhark_ffi "$prog" >build.log 2>&1); then
    pass "$backend: build_futhark_ffi builds a Python module from $prog"
    counted "$backend-$pytest" sh -c "cd '$FFI' && PYTHONPATH=. ../../venv/bin/python '$PWD/tests/library/$pytest.py'"
else
    tail -n 20 "$FFI/build.log"
    fail "$backend: build_futhark_ffi builds a Python module from $prog (needs python3-dev)"
fi
}

# Both libraries of one backend. contexts_test makes as many contexts as
# LeakSanitizer needs to see a leak per context (an OpenCL one sets up the
# device and builds the program).
test_backend() {
    local extra= contexts=1000
    [ "$1" = opencl ] && extra=cl_test contexts=20
    test_library "$1" arrays "api_test $extra contexts_test" ffi_test
    test_library "$1" opaque opaque_test ffi_opaque_test
}

# By default every backend; OpenCL only where an OpenCL platform is
# installed (as in tests/run.sh), unless FUTHORC_REQUIRE_OPENCL is set.
backends=${*:-c multicore opencl}
if [ $# -eq 0 ] && ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1 && [ -z "${FUTHORC_REQUIRE_OPENCL:-}" ]; then
    echo "opencl library: SKIPPED: no OpenCL platform installed"
    backends="c multicore"
fi
for backend in $backends; do
    case $backend in
    c | opencl | multicore) test_backend "$backend" ;;
    *) fail "unknown backend $backend (c, opencl or multicore)" ;;
    esac
done
finish
