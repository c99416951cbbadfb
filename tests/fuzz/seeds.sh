#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the tests, so that no
# test input is committed twice:
#   programs/  every .fut file of tests, examples and bench (the frontend
#              and pipeline targets);
#   values/    the values of every input and output test block, the data
#              files of tests (up to MAX_DATA bytes) and binary values of
#              every element type and ranks 0 to 3 from `futhorc dataset`
#              (the values target);
#   server/    the scripted sessions and raw inputs of tests/server/run.sh,
#              each followed by the contents of the file it restores as the
#              target's data file (the server target).
# The library target starts from no seeds: its input is a program of API
# calls that no test is written in.
#
#   usage: tests/fuzz/seeds.sh OUTDIR    (FUTHORC=path selects the compiler)
set -eu
cd "$(dirname "$0")/../.."
out=$1
futhorc=${FUTHORC:-bin/futhorc}
# Data files beyond this size are left out: libFuzzer reads only the first
# -max_len bytes of an input anyway.
MAX_DATA=65536
rm -rf "$out"
mkdir -p "$out/programs" "$out/values" "$out/server"

programs=$(find tests examples bench -name '*.fut' | sort)
for f in $programs; do cp "$f" "$out/programs/${f//\//_}"; done

# Test blocks live in -- comments; each `input { ... }` or `output { ... }`
# (over several lines, perhaps) is one seed.
# shellcheck disable=SC2086
awk -v dir="$out/values" '
    function flush() {
        while (match(text, /(input|output)[ \t]*\{[^}]*\}/)) {
            block = substr(text, RSTART, RLENGTH)
            text = substr(text, RSTART + RLENGTH)
            sub(/^[a-z]*[ \t]*\{/, "", block)
            sub(/\}$/, "", block)
            f = dir "/block" ++n
            printf "%s", block > f
            close(f)
        }
        text = ""
    }
    FNR == 1 { flush() }
    /^--/ { text = text substr($0, 3) "\n" }
    END { flush() }' $programs
find tests -name '*.in' -o -name '*.out' | while read -r f; do
    [ "$(wc -c <"$f")" -le "$MAX_DATA" ] && cp "$f" "$out/values/${f//\//_}"
done
for t in i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 bool; do
    for shape in "" "[3]" "[2][3]" "[2][0][2]"; do
        "$futhorc" dataset -b -g "$shape$t" >"$out/values/binary$shape$t"
    done
done

# The files the sessions restore: printf 'TEXT' >"$work/NAME" lines.
declare -A fixture
re_fixture="^printf '([^']*)' >\"\\\$work/([^\"]+)\"$"
re_raw="^check_raw \"([^\"]*)\" printf '([^']*)'$"
n=0
while IFS= read -r line; do
    if [[ $line =~ $re_fixture ]]; then
        fixture[${BASH_REMATCH[2]}]=${BASH_REMATCH[1]}
    elif [[ $line =~ $re_raw ]]; then
        # shellcheck disable=SC2059
        printf "${BASH_REMATCH[2]}" >"$out/server/raw$((++n))"
    fi
done <tests/server/run.sh
awk -v dir="$out/server" '
    /^session .*<<.EOF.$/ { f = dir "/session" ++n; printf "" > f; next }
    /^EOF$/ { if (f) close(f); f = ""; next }
    f && /^> / { print substr($0, 3) > f }' tests/server/run.sh
for s in "$out"/server/session*; do
    for name in "${!fixture[@]}"; do
        grep -q "^restore $name " "$s" || continue
        sed -i "s/^restore $name /restore data /" "$s"
        # shellcheck disable=SC2059
        { printf '%%%%%%\n'; printf "${fixture[$name]}"; } >>"$s"
        break
    done
done
