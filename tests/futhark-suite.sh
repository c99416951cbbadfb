#!/usr/bin/env bash
# How much of Futhark's own test suite futhorc passes (issue 14's measure).
# Futhark's tests are not ours and are not in this repository: fetch
# diku-dk/futhark into a scratch folder and give its tests/ folder.
#
#   usage: tests/futhark-suite.sh FUTHARK_TESTS_DIR [OUT_DIR]
#   FUTHORC  the compiler (default bin/futhorc); BACKEND c (default) or opencl
#   JOBS     test processes at once (default: the number of cores)
#
# Runs `futhorc test -v` over every .fut file and judges each file: it
# passes when at least one of its cases passed and none failed. Structure
# checks count constructs of Futhark's own IR, which futhorc's is not:
# their results are ignored. Files with no other check (or no test block)
# are not comparable and are left out. Files using automatic differentiation (vjp,
# jvp, vjp2, jvp2, mjp; not part of the language issue) are counted apart. Prints the
# counts; writes to OUT_DIR (default a temporary folder, printed) the
# files passing (pass.txt) and failing (fail.txt, each with the first line
# of its first failure) and the whole log (log.txt).
set -u
dir=${1:?usage: tests/futhark-suite.sh FUTHARK_TESTS_DIR [OUT_DIR]}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
futhorc=${FUTHORC:-$(cd "$(dirname "$0")/.." && pwd)/bin/futhorc}
jobs=${JOBS:-$(nproc)}

"$futhorc" test -v -j "$jobs" --backend="${BACKEND:-c}" --timeout=60 "$dir" >"$out/log.txt" 2>&1

# Per file: "PASS" or "FAIL<TAB>first failure line", from the case lines
# "PASS FILE, ..." / "FAIL FILE: ..." / "FAIL FILE, ...".
awk '
    /^PASS / { f = $2; sub(/[,:]$/, "", f); if (!(f in st)) st[f] = "PASS" }
    /^FAIL [^ ]*: structure [a-z]* check/ { next }
    /^FAIL / { f = $2; sub(/[,:]$/, "", f); if (st[f] != "FAIL") { st[f] = "FAIL"; why[f] = $0 } }
    END { for (f in st) print f "\t" st[f] "\t" why[f] }
' "$out/log.txt" | sort >"$out/files.tsv"

ad() { grep -qE '\b(jvp2?|vjp2?|mjp)\b' "$1"; }
: >"$out/pass.txt"
: >"$out/fail.txt"
: >"$out/ad.txt"
while IFS=$'\t' read -r f st why; do
    if ad "$f"; then echo "$f $st" >>"$out/ad.txt"
    elif [ "$st" = PASS ]; then echo "$f" >>"$out/pass.txt"
    else printf '%s\t%s\n' "$f" "$why" >>"$out/fail.txt"
    fi
done <"$out/files.tsv"

total=$(find "$dir" -name '*.fut' | wc -l)
p=$(wc -l <"$out/pass.txt")
f=$(wc -l <"$out/fail.txt")
a=$(wc -l <"$out/ad.txt")
echo "futhark-suite: $total .fut files; $((p + f)) comparable (not using AD): $p pass, $f fail ($((p * 100 / (p + f > 0 ? p + f : 1)))%); $a use AD"
tail -n 1 "$out/log.txt" | sed 's/^/futhark-suite: cases: /'
echo "futhark-suite: lists in $out"
