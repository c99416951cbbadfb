# Shared start of the test scripts under tests/*/run.sh (sourced after
# `suite=NAME`): runs from the repository root, picks the compiler
# ($FUTHORC or bin/futhorc), makes a scratch directory $work removed on
# exit, and counts checks with pass and fail (which prints "NAME: FAIL ...").
set -u
cd "$(dirname "$0")/../.." || exit 1
futhorc=${FUTHORC:-bin/futhorc}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "$suite: FAIL $*"
}

# expect_run NAME WANT_STATUS WANT_OUT COMMAND...: runs COMMAND (its stderr
# in $work/err) and compares its exit status and standard output.
expect_run() {
    local name=$1 want_rc=$2 want=$3 got rc
    shift 3
    got=$("$@" 2>"$work/err")
    rc=$?
    if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ]; then pass; else
        fail "$name: status $rc (want $want_rc), output:"
        printf '%s\n' "$got" | head -5
        head -5 "$work/err"
    fi
}
