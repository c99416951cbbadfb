#!/usr/bin/env bash
# Tests of `futhorc bench` (and of random input in `futhorc test`): runs the
# runner on the programs under tests/bench and checks its JSON against the
# shape of Futhark's bench schema (check_json.py), the run counts, failed
# datasets recorded as strings, --compare on handmade files, its errors on
# bad files, the SVG plot (well-formed XML), command-line errors, and
# `futhorc test` over programs with random input. Ends with
# "bench: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/bench/run.sh      (FUTHORC=path selects another compiler)
suite=bench
source "$(dirname "$0")/../lib.sh"
here=tests/bench
# check NAME COMMAND...: passes if the command succeeds, else shows its output.
check() {
    local name=$1
    shift
    if out=$("$@" 2>&1); then pass; else fail "$name"; echo "$out" | sed 's/^/    /'; fi
}

# ---- Good programs: schema, names, run counts ------------------------------------

runs=3
"$futhorc" bench -r $runs --json="$work/good.json" --plot "$work/good.svg" \
    $here/programs $here/slow >"$work/good.out" 2>"$work/good.err"
rc=$?
[ $rc -eq 0 ] && pass || { fail "bench on good programs exited with $rc"; cat "$work/good.out" "$work/good.err"; }
expect='{"runs": '$runs', "programs": {
  "tests/bench/programs/data.fut": {"data/three.in": "ok"},
  "tests/bench/programs/random.fut:dot": {"[1000]f32 [1000]f32": "ok", "[100000]f32 [100000]f32": "ok"},
  "tests/bench/programs/random.fut:scaled_sum": {"[1000]i32 3i32": "ok"},
  "tests/bench/programs/sum.fut": {"#0 (\"1000i64\")": "ok", "a million": "ok"},
  "tests/bench/slow/loop.fut": {"slow": "ok"}}}'
check "good JSON: schema, datasets and run counts" python3 $here/check_json.py "$work/good.json" "$expect"
check "a slow dataset has positive runtimes" python3 -c '
import json, sys
rts = json.load(open(sys.argv[1]))["tests/bench/slow/loop.fut"]["datasets"]["slow"]["runtimes"]
sys.exit(0 if rts and min(rts) > 0 else 1)' "$work/good.json"
# Without -r: 10 runs, and more until 0.5 s (or 100000 runs).
"$futhorc" bench --json="$work/default.json" $here/programs/sum.fut >"$work/default.out" 2>&1
check "without -r: at least 10 runs and 0.5 s" python3 -c '
import json, sys
for name, d in json.load(open(sys.argv[1]))["tests/bench/programs/sum.fut"]["datasets"].items():
    rts = d["runtimes"]
    if len(rts) < 10 or (sum(rts) < 500000 and len(rts) < 100000): sys.exit(name + ": " + str(len(rts)) + " runs")' "$work/default.json"
check "with -r: the header says exactly" grep -q '^Reporting arithmetic mean runtime of 3 runs for each dataset.$' "$work/good.out"
# The console line of a dataset: mean, interval and deviation.
check "console report" grep -Eq '^a million: +[0-9]+μs \(95% CI: \[ *[0-9.]+, +[0-9.]+\]; sd: [0-9.]+μs; [0-9]+ runs\)$' "$work/good.out"
check "console headers" grep -q '^tests/bench/programs/random.fut:dot (no tuning file):$' "$work/good.out"
check "nobench and error: cases are not run" bash -c "! grep -q '7i64\|-1i64' '$work/good.out'"
check "no progress line when stderr is not a terminal" bash -c "! grep -q \$'\r' '$work/good.err'"

# On a terminal (util-linux `script` provides one) a progress line shows
# what runs, redrawn after a carriage return.
if command -v script >/dev/null 2>&1; then
    script -qc "'$futhorc' bench -r 1 $here/slow" /dev/null >"$work/tty.out" 2>&1
    check "progress line on a terminal" grep -q $'\r\033\[Ktests/bench/slow/loop.fut: slow: warm-up and 1 runs' "$work/tty.out"
fi

# ---- The plot ----------------------------------------------------------------------

check "SVG parses as XML with a bar per dataset" python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
bars = [r for r in root.iter(ns + "rect") if r.get("fill") == "#4e79a7"]
texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
assert len(bars) == 7, len(bars)
assert "a million" in texts and "mean runtime" in texts and "tests/bench/slow/loop.fut" in texts
' "$work/good.svg"

# ---- Failing datasets and programs --------------------------------------------------

"$futhorc" bench -r 2 --json "$work/bad.json" --plot "$work/bad.svg" $here/bad >"$work/bad.out" 2>&1
rc=$?
[ $rc -eq 1 ] && pass || fail "bench on failing programs exited with $rc, not 1"
expect='{"runs": 2, "programs": {
  "tests/bench/bad/fails.fut": {"#0 (\"[1, 2, 3] 5i64\")": "error:out of bounds",
      "#1 (\"[1, 2, 3] 1i64\")": "error:wrong result", "#2 (\"[1, 2, 3] 2i64\")": "ok",
      "data/missing.in": "error:cannot read"},
  "tests/bench/bad/no_compile.fut": {"#0 (\"1\")": "error:compilation failed"}}}'
check "failed datasets are recorded as strings" python3 $here/check_json.py "$work/bad.json" "$expect"
check "failed datasets are reported" grep -q 'Index \[5\] out of bounds' "$work/bad.out"
check "--plot to a .png file is refused (it writes SVG)" bash -c "! '$futhorc' bench --plot '$work/x.png' $here/programs 2>'$work/png.err' && grep -q 'name its file .svg' '$work/png.err' && [ ! -e '$work/x.png' ]"
check "SVG with failed datasets parses" python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$work/bad.svg"

# ---- --compare ------------------------------------------------------------------------

check "--compare speedup table" bash -c "'$futhorc' bench --compare $here/compare/old.json $here/compare/new.json | diff - $here/compare/expected.txt"
check "--compare on our own JSON" "$futhorc" bench --compare "$work/good.json" "$work/bad.json"
printf '{"p": {"datasets": {"d": {"runtimes": [1,' >"$work/trunc.json"
printf '{"p": {"datasets": {"d": {"runtimes": [1.5], "bytes": {}}}}}' >"$work/float.json"
printf '[1, 2]' >"$work/array.json"
for f in trunc float array missing; do
    out=$("$futhorc" bench --compare "$work/$f.json" $here/compare/new.json 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && echo "$out" | grep -q "futhorc bench: .*$f.json"; then pass; else
        fail "--compare on $f.json (status $rc): $out"
    fi
done

# ---- Command-line errors ---------------------------------------------------------------

for args in "" "/nonexistent/prog.fut" "-r 0 $here/programs" "--bogus $here/programs" "--compare $here/compare/old.json"; do
    out=$("$futhorc" bench $args 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && echo "$out" | grep -q '^futhorc bench: '; then pass; else
        fail "futhorc bench $args (status $rc): $out"
    fi
done

# ---- Selection of cases -------------------------------------------------------------------

"$futhorc" bench -r 1 -e scaled_sum --exclude-case=nothing --json "$work/sel.json" $here/programs/random.fut >/dev/null 2>&1
check "--entry-point selects one entry" python3 $here/check_json.py "$work/sel.json" \
    '{"runs": 1, "programs": {"tests/bench/programs/random.fut:scaled_sum": {"[1000]i32 3i32": "ok"}}}'

# ---- futhorc test with random input ----------------------------------------------------------

out=$("$futhorc" test $here/test_random 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q '^3 passed, 0 failed$'; then pass; else fail "futhorc test with random input: $out"; fi

echo "bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
