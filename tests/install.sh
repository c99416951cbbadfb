#!/usr/bin/env bash
# `make install` into a scratch DESTDIR: the two executables, every man
# page of man/ in its section (futhorc-c-api(3) among them), and the
# installed compiler runs. Ends with "install: N passed, N failed"; exits
# 1 if anything failed.
#
#   usage: tests/install.sh
set -u
cd "$(dirname "$0")/.."
dest=$(mktemp -d) || exit 1
trap 'rm -rf "$dest"' EXIT
passed=0 failed=0
check() {
    if [ -e "$dest/usr/$1" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "install: FAIL: no $1"; fi
}

# The compiler is built as the Makefile builds it: make check-sanitize
# exports CC and CFLAGS with sanitizers for the generated programs, and
# objects built with them do not link without.
if ! env -u CFLAGS -u CC make -s install DESTDIR="$dest" PREFIX=/usr >"$dest.log" 2>&1; then
    failed=$((failed + 1))
    echo "install: FAIL: make install"
    sed 's/^/    /' "$dest.log"
fi
rm -f "$dest.log"
check bin/futhorc
check bin/futhorc-llvm
for page in man/*.[0-9]; do
    name=$(basename "$page")
    check "share/man/man${name##*.}/$name"
done
if "$dest/usr/bin/futhorc" --version >/dev/null 2>&1; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    echo "install: FAIL: the installed futhorc does not run"
fi
echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
