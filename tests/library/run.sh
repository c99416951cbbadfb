#!/usr/bin/env bash
# Tests of `futhorc c --library`: makes a library of tests/library/arrays.fut,
# checks its header (C and C++) and JSON manifest, builds the C application
# api_test.c against it under AddressSanitizer (leak checking on) and runs
# it, then builds a Python module from the library with futhark-ffi 0.16
# (pip-installed into a virtual environment under build/library) and runs
# ffi_test.py. Ends with "library: N passed, N failed"; exits 1 on failure.
#
#   bash tests/library/run.sh          (from anywhere; FUTHORC overrides bin/futhorc)

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

lib=$OUT/arrays
rm -f "$lib".h "$lib".c "$lib".json
if "$FUTHORC" c --library tests/library/arrays.fut -o "$lib" && [ -s "$lib.h" ] && [ -s "$lib.c" ] && [ -s "$lib.json" ]; then
    pass "futhorc c --library writes .h, .c and .json"
else
    fail "futhorc c --library writes .h, .c and .json"
    finish
fi

# The header alone, in C and in C++.
if echo '#include "arrays.h"' | $CC -std=c99 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$OUT" -x c -; then
    pass "header compiles alone as C99"
else fail "header compiles alone as C99"; fi
if command -v c++ >/dev/null; then
    if echo '#include "arrays.h"' | c++ -Wall -Wextra -Werror -fsyntax-only -I"$OUT" -x c++ -; then
        pass "header compiles as C++"
    else fail "header compiles as C++"; fi
fi

# The manifest: Futhark's schema, and every function it names is declared.
if python3 - "$lib.json" "$lib.h" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
h = open(sys.argv[2]).read()
declared = set(re.findall(r'\b(futhark_\w+)\(', h))
assert set(m) <= {"backend", "version", "entry_points", "types"} and m["backend"] == "c", m.keys()
for name, e in m["entry_points"].items():
    assert e["cfun"] in declared, e["cfun"]
    assert all(set(i) <= {"name", "type", "unique"} for i in e["inputs"])
    assert all(set(o) <= {"type", "unique"} for o in e["outputs"])
    for x in e["inputs"] + e["outputs"]:
        assert x["type"] in m["types"] or re.fullmatch(r"[iuf](8|16|32|64)|bool", x["type"]), x
for name, t in m["types"].items():
    assert t["kind"] == "array" and t["rank"] == name.count("[]") and name.endswith(t["elemtype"]), name
    assert t["ctype"].startswith("struct futhark_") and t["ctype"].endswith(" *"), t
    assert {"free", "shape", "values", "new"} <= set(t["ops"]) and set(t["ops"].values()) <= declared, t
assert m["entry_points"]["stats"]["outputs"][2]["type"] == "[]f64"
PY
then pass "manifest follows the schema and names declared functions"
else fail "manifest follows the schema and names declared functions"; fi

# The C application under AddressSanitizer.
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if $CC -std=c11 -g -O1 $SAN -I"$OUT" -o "$OUT/api_test" tests/library/api_test.c "$lib.c" -lm 2>"$OUT/cc.log"; then
    pass "api_test.c compiles and links with the library"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 counted api_test "$OUT/api_test"
else
    cat "$OUT/cc.log"
    fail "api_test.c compiles and links with the library"
fi

# futhark-ffi from PyPI, in a virtual environment kept between runs.
VENV=$OUT/venv
if ! "$VENV/bin/python" -c "import futhark_ffi, numpy" 2>/dev/null; then
    rm -rf "$VENV"
    if ! python3 -m venv "$VENV" >"$OUT/venv.log" 2>&1; then
        cat "$OUT/venv.log"
        fail "python3 -m venv (is python3-venv installed?)"
        finish
    fi
    if ! "$VENV/bin/pip" install --disable-pip-version-check -q --timeout 30 "futhark-ffi==$FFI_VERSION" >>"$OUT/venv.log" 2>&1; then
        tail -n 5 "$OUT/venv.log"
        fail "pip install futhark-ffi==$FFI_VERSION: cannot reach PyPI or install it"
        rm -rf "$VENV"
        finish
    fi
fi
FFI=$OUT/ffi
rm -rf "$FFI"
mkdir -p "$FFI"
cp "$lib".h "$lib".c "$lib".json "$FFI"/
if (cd "$FFI" && ../venv/bin/build_futhark_ffi arrays >build.log 2>&1); then
    pass "build_futhark_ffi builds a Python module from the library"
    counted ffi_test sh -c "cd '$FFI' && PYTHONPATH=. ../venv/bin/python '$PWD/tests/library/ffi_test.py'"
else
    tail -n 20 "$FFI/build.log"
    fail "build_futhark_ffi builds a Python module from the library (needs python3-dev)"
fi
finish
