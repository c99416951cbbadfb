#!/usr/bin/env bash
# Robustness test: feeds the compiler every test program cut at random
# points and with random bytes changed. Each mutant must be either accepted
# or rejected with an error message and exit status 1: never a crash, a
# hang or a silent failure. Deterministic (fixed seed).
#   usage: tests/robustness.sh [MUTANTS_PER_FILE]   (FUTHORC overrides bin/futhorc)
set -u
cd "$(dirname "$0")/.."
futhorc=${FUTHORC:-bin/futhorc}
per_file=${1:-4}
# A mutant that takes longer than this to compile is a hang.
limit=10
RANDOM=20261121
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check_mutant() { # file description
  local out rc
  out=$(timeout "$limit" "$futhorc" dump --stage=c "$1" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q 'error' <<<"$out"; }; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "robustness: $2: exit status $rc" >&2
    printf '%s\n' "$out" | head -5 >&2
  fi
}
# A progress line every 20 s: how many files are done.
shown=$SECONDS nfiles=0
while IFS= read -r f; do
  if ((SECONDS - shown >= 20)); then
    echo "robustness: progress: $nfiles files, $passed mutants passed, $failed failed"
    shown=$SECONDS
  fi
  nfiles=$((nfiles + 1))
  size=$(wc -c <"$f")
  [ "$size" -gt 1 ] || continue
  for ((k = 0; k < per_file; k++)); do
    m="$work/m.fut"
    cut=$(( (RANDOM * 32768 + RANDOM) % size ))
    head -c "$cut" "$f" >"$m"
    check_mutant "$m" "$f cut at byte $cut"
    cp "$f" "$m"
    for ((j = 0; j < 3; j++)); do
      pos=$(( (RANDOM * 32768 + RANDOM) % size ))
      printf "$(printf '\\%03o' $((RANDOM % 256)))" | dd of="$m" bs=1 seek="$pos" conv=notrunc status=none
    done
    check_mutant "$m" "$f with 3 bytes changed (seed state $RANDOM)"
  done
done < <(find tests/programs tests/errors examples -name '*.fut' 2>/dev/null | sort)
echo "robustness: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
