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
