#!/usr/bin/env bash
# Server-mode tests: builds the programs of tests/server with futhorc (with
# AddressSanitizer and UBSan where the C compiler has them), drives them
# directly with scripted sessions (every protocol command, bad input
# included), then through the released Python client `futhark-server`
# 1.0.1, installed from PyPI into a virtual environment under build/.
# Ends with "server: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/server/run.sh [BACKEND]   (c, the default, or multicore;
#                                           FUTHORC=path selects another compiler)
set -u
cd "$(dirname "$0")/../.."
root=$PWD
futhorc=${FUTHORC:-bin/futhorc}
backend=${1:-c}
build=$root/build/tests/server-$backend
venv=$root/build/server-venv
client_version=1.0.1
passed=0 failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "server: FAIL $*"; }
finish() {
    echo "server: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

copts=()
rm -rf "$build"
mkdir -p "$build/san" "$build/work" || exit 1
work=$build/work

# ---- Building ------------------------------------------------------------------

# Sanitizers where they work here (compiler support, and LeakSanitizer can
# run in this container); their reports go to files checked at the end.
san_flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
echo 'int main(void) { return 0; }' >"$build/probe.c"
if ${CC:-cc} $san_flags -o "$build/probe" "$build/probe.c" 2>/dev/null &&
    ASAN_OPTIONS=detect_leaks=1 "$build/probe" 2>/dev/null; then
    export CFLAGS="$san_flags"
    [ "$backend" = multicore ] && copts=(--sanitize=address)
    export ASAN_OPTIONS="log_path=$build/san/asan:detect_leaks=1"
    export UBSAN_OPTIONS="log_path=$build/san/ubsan:print_stacktrace=1"
else
    echo "server: note: sanitizers unavailable; programs built without them"
fi

for prog in arith consume; do
    if "$futhorc" "$backend" "${copts[@]}" "tests/server/$prog.fut" -o "$build/$prog" >"$build/$prog.log" 2>&1; then
        pass
    else
        fail "compiling tests/server/$prog.fut:"
        cat "$build/$prog.log"
    fi
done
[ -x "$build/arith" ] && [ -x "$build/consume" ] || finish

# ---- Direct sessions ---------------------------------------------------------------

# session NAME PROG: runs the transcript on stdin against `PROG --server`.
# Lines "> CMD" are commands; the other lines are the output expected from
# the command before them ("runtime: N" stands for any time). The "%%% OK"
# after start-up and after each command is implied.
session() {
    local name=$1 prog=$2 script got want
    script=$(cat)
    want=$(awk 'BEGIN { print "%%% OK" } /^> / { if (n++) print "%%% OK"; next } { print } END { if (n) print "%%% OK" }' <<<"$script")
    got=$(cd "$work" && sed -n 's/^> //p' <<<"$script" | "$build/$prog" --server 2>"$work/stderr" |
        sed 's/^runtime: [0-9][0-9]*$/runtime: N/')
    if [ "$got" == "$want" ]; then
        pass
    else
        fail "session $name: transcript differs (expected, got):"
        diff <(echo "$want") <(echo "$got") | head -20
    fi
}

printf '2 40' >"$work/two.txt"
printf '[[1, 2, 3], [4, 5, 6]]' >"$work/m.txt"
printf '[5i64, -3i64, 9i64]' >"$work/is.txt"
printf '[2i64, 0i64, 3i64]' >"$work/ns.txt"

session arrays arith <<'EOF'
> restore m.txt m [][]f32
> type m
[][]f32
> kind [][]f32
array
> rank [][]f32
2
> elemtype [][]f32
f32
> shape m
2
3
> index e m 1 2
> type e
f32
> kind f32
primitive
> call transpose2 t m
runtime: N
> shape t
3
2
> index e2 t 2 1
> store e2.out e2
> index bad m 2 0
%%% FAILURE
Invalid index `2` on dimension 1.
> index bad m 0
%%% FAILURE
2 indices expected but 1 values provided.
> index bad m 0 x
%%% FAILURE
Invalid index `x` on dimension 2.
> shape e
%%% FAILURE
Not an array: e
> rank f32
%%% FAILURE
Not an array type: f32
> elemtype nonsense
%%% FAILURE
Unknown type: nonsense
EOF

session build-values arith <<'EOF'
> restore two.txt a i32 b i32
> new_array v []i32 3 a b a
> store v.out v
> shape v
3
> set v b 0
> index first v 0
> store first.out first
> new_array w []i32 2 a
%%% FAILURE
new_array: 2 values expected but 1 provided.
> new_array w []f32 1 a
%%% FAILURE
Value a is not a f32.
> new_array w []i32 -1
%%% FAILURE
Invalid dimension size: -1
> set v b 5
%%% FAILURE
Invalid index `5` on dimension 1.
> new_array v []i32 0
%%% FAILURE
Variable already exists: v
> new_array e [][]i32 0 4
> shape e
0
4
EOF

session irregular arith <<'EOF'
> restore ns.txt ns []i64
> call ranges r ns
runtime: N
> type r
([]i64, []i64)
> project e r 0
> project s r 1
> store sizes.out s
> call row_sums t e s
runtime: N
> store sums.out t
> call row_sums u s e
runtime: N
%%% FAILURE
tests/server/arith.fut:20:67: The row sizes given to unflatten_irregular add up to 4, not to the 3 elements given.
EOF

session tuples arith <<'EOF'
> restore is.txt xs []i64
> call minmax r xs
runtime: N
> type r
(i64, i64)
> kind "(i64, i64)"
record
> fields "(i64, i64)"
0 i64
1 i64
> fields []i64
%%% FAILURE
Not a record type: []i64
> project lo r 0
> project hi r 1
> project x r 2
%%% FAILURE
No such field: 2
> project x lo 0
%%% FAILURE
Not a record: lo
> new pair "(i64, i64)" hi lo
> store pair.out pair
> new bad "(i64, i64)" hi
%%% FAILURE
2 fields expected but 1 values provided.
> new bad "(i64, []i64)" hi lo
%%% FAILURE
Field 1 mismatch: expected type []i64, got i64
> call minmax a b c xs
%%% FAILURE
Entry point minmax takes 1 inputs and gives 2 outputs, but 4 variables were given.
> call minmax a a xs
%%% FAILURE
Variable already exists: a
> call add s r r
%%% FAILURE
Wrong input type.  Expected i32, got (i64, i64).
EOF

session protocol arith <<'EOF'
> entry_points
add
scale
minmax
transpose2
checked_div
negate_all
ranges
row_sums
> inputs row_sums
[]i64
[]i64
> inputs minmax
[]i64
> outputs minmax
*i64
*i64
> output minmax
*(i64, i64)
> output scale
*[]f64
> attributes add
> attributes nope
%%% FAILURE
Unknown entry point: nope
> tuning_params add
> report
{"memory":{},"events":[]}
> pause_profiling
> unpause_profiling
> clear
> set_tuning_param x y
%%% FAILURE
Invalid tuning parameter value: y
> zip z "[](i32, i32)" a b
%%% FAILURE
zip: futhorc programs have no arrays of records
> unzip a b c
%%% FAILURE
unzip: futhorc programs have no arrays of records
> variants t
%%% FAILURE
Not a sum type
> variant v
%%% FAILURE
Not a sum type
> construct v t c
%%% FAILURE
Not a sum type
> destruct v
%%% FAILURE
Not a sum type
> types extra
%%% FAILURE
Wrong number of arguments to types: 1
> call
%%% FAILURE
Wrong number of arguments to call: 0
> 
%%% FAILURE
Empty line
> free "a b
%%% FAILURE
Malformed command: unterminated quote
> restore two.txt a
%%% FAILURE
restore: expected a file and pairs of variable names and types
> restore two.txt a i32 a i32
%%% FAILURE
Variable already exists: a
> restore two.txt "a b" i32 c "i32"
> type "a b"
i32
> store /nonexistent/dir/file "a b"
%%% FAILURE
Failed to open /nonexistent/dir/file: No such file or directory
> store x.out "a b" nope
%%% FAILURE
Unknown variable: nope
> kind "(i32)"
%%% FAILURE
Unknown type: (i32)
> kind "(i32, [][]bool)"
record
EOF

# The values stored by the sessions, in the binary format.
expect_bytes() { # file expected-bytes-as-printf-escapes
    if cmp -s "$work/$1" <(printf "$2"); then pass; else fail "stored $1 differs: $(od -An -tx1 "$work/$1" | head -2)"; fi
}
expect_bytes e2.out 'b\002\000 f32\000\000\300\100'
expect_bytes v.out 'b\002\001 i32\003\000\000\000\000\000\000\000\002\000\000\000\050\000\000\000\002\000\000\000'
expect_bytes sizes.out 'b\002\001 i64\003\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\003\000\000\000\000\000\000\000'
expect_bytes sums.out 'b\002\001 i64\003\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\003\000\000\000\000\000\000\000'
expect_bytes first.out 'b\002\000 i32\050\000\000\000'
expect_bytes pair.out 'b\002\000 i64\011\000\000\000\000\000\000\000b\002\000 i64\375\377\377\377\377\377\377\377'

# Raw bytes, a line without a newline at the end, and an overlong line: a
# failure each, never a crash; the server still answers afterwards.
check_raw() { # name input-producing-command...
    local name=$1 out rc
    shift
    out=$("$@" | (cd "$work" && "$build/arith" --server 2>"$work/stderr"))
    rc=$?
    if [ $rc -eq 0 ] && [ "$(tail -n 2 <<<"$out" | head -n 1)" == "*i32" ] && [ "$(tail -n 1 <<<"$out")" == "%%% OK" ]; then
        pass
    else
        fail "raw input $name: status $rc, output: $(tail -n 5 <<<"$out")"
    fi
}
check_raw "binary junk" printf 'ca\000ll add\n\377\376\375\n\001\002\noutput add\n'
check_raw "no final newline" printf 'bogus\noutput add'
check_raw "overlong line" bash -c 'awk "BEGIN { printf \"free\"; for (i = 0; i < 70000; i++) printf \" v\"; print \"\" }"; echo output add'

# Options: server mode refuses the plain executable's options, checks a
# tuning file and prints help.
check_exit() { # name expected-status args...
    local name=$1 want=$2 rc
    shift 2
    (cd "$work" && "$build/arith" "$@" </dev/null >"$work/opt.out" 2>"$work/opt.err")
    rc=$?
    if [ $rc -eq "$want" ]; then pass; else fail "options $name: status $rc, not $want: $(cat "$work/opt.err")"; fi
}
printf -- '-- a comment\n\nfoo=3\nbar = 7\n' >"$work/good.tuning"
printf 'foo=x\n' >"$work/bad.tuning"
check_exit "-e refused" 1 --server -e main
check_exit "-b refused" 1 --server -b
check_exit "good tuning file" 0 --server --tuning good.tuning -P -L -D --cache-file c --param foo=1
check_exit "bad tuning file" 1 --server --tuning bad.tuning
check_exit "missing tuning file" 1 --server --tuning nonexistent
check_exit "help" 0 --server --help
grep -q -- '--tuning' "$work/opt.out" && pass || fail "help text lacks --tuning"

# ---- The Python client ---------------------------------------------------------------

# Installs futhark-server into the virtual environment unless it is there.
install_client() {
    if "$venv/bin/python" -c "import futhark_server, importlib.metadata as m; assert m.version('futhark-server') == '$client_version'" 2>/dev/null; then
        return 0
    fi
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >"$build/venv.log" 2>&1; then
        cat "$build/venv.log"
        fail "cannot create a Python virtual environment (on Debian: apt-get install python3-venv)"
        return 1
    fi
    if ! "$venv/bin/pip" install --disable-pip-version-check -q "futhark-server==$client_version" >"$build/pip.log" 2>&1; then
        tail -n 5 "$build/pip.log"
        fail "cannot install futhark-server $client_version from PyPI (is PyPI reachable?)"
        return 1
    fi
}

if install_client; then
    "$venv/bin/python" tests/server/client.py "$build" >"$build/client.log" 2>&1
    rc=$?
    p=$(grep -c '^PASS ' "$build/client.log")
    f=$(grep -c '^FAIL ' "$build/client.log")
    passed=$((passed + p))
    failed=$((failed + f))
    grep -v '^PASS ' "$build/client.log" | sed 's/^/server: client: /'
    if [ $rc -ne 0 ] || [ "$p" -eq 0 ]; then fail "the client driver exited with status $rc after $p checks"; fi
fi

# ---- Sanitizer reports ------------------------------------------------------------------

for report in "$build"/san/*; do
    [ -e "$report" ] || continue
    fail "sanitizer report $report:"
    head -n 20 "$report"
done
finish
