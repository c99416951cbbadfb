#!/usr/bin/env bash
# futhorc pkg on git repositories the test makes itself (no network):
# "sorts" and "segmented" packages with the package paths of
# diku-dk/sorts and diku-dk/segmented, added by local path and by package
# path (git's url.insteadOf stands in for github.com); init, add, sync,
# check, versions, upgrade, remove and fmt; minimal version selection,
# hash pinning, commit versions, major versions, and the errors: an
# unreachable repository, an unknown version, a changed commit, a bad
# manifest. The project then compiles and runs a program importing both
# packages. Ends with "pkg: N passed, N failed"; exits 1 if anything
# failed.
#
#   usage: tests/pkg/run.sh      (FUTHORC=path selects another compiler)
suite=pkg
source "$(dirname "$0")/../lib.sh"
futhorc=$(realpath "$futhorc") # the script works in other directories
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export GIT_CONFIG_NOSYSTEM=1 HOME=$work # no user's git configuration
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"


# pkg NAME WANT_STATUS ARGS...: runs futhorc pkg ARGS in the current
# directory; output in $work/out, stderr in $work/err.
pkg() {
    local name=$1 want=$2 rc
    shift 2
    "$futhorc" pkg "$@" >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" = "$want" ]; then pass; else
        fail "$name: status $rc (want $want)"
        sed 's/^/    /' "$work/out" "$work/err" | head -10
    fi
}
# has NAME FILE PATTERN: FILE has a line matching the extended regex.
has() {
    if grep -Eq -- "$3" "$2"; then pass; else fail "$1: no line /$3/ in $2:"; sed 's/^/    /' "$2" | head -10; fi
}
hasnt() {
    if grep -Eq -- "$3" "$2"; then fail "$1: a line /$3/ in $2:"; sed 's/^/    /' "$2" | head -10; else pass; fi
}

# ---- The repositories --------------------------------------------------------
# commit REPO MESSAGE [TAG]: commits everything in REPO, tags it vTAG.
commit() {
    git -C "$1" add -A && git -C "$1" commit -qm "$2" && { [ -z "${3:-}" ] || git -C "$1" tag "v$3"; }
}
repos=$work/repos
seg=$repos/segmented
mkdir -p "$seg/lib/github.com/diku-dk/segmented"
git -c init.defaultBranch=main init -q "$seg"
printf 'package github.com/diku-dk/segmented\n\nrequire {\n}\n' >"$seg/futhark.pkg"
cat >"$seg/lib/github.com/diku-dk/segmented/segmented.fut" <<'FUT'
-- | Inclusive scan of the segments that flags start.
def segmented_scan [n] 't (op: t -> t -> t) (ne: t) (flags: [n]bool) (as: [n]t) : *[n]t =
  (unzip (scan (\(xf, x) (yf, y) -> (xf || yf, if yf then y else x `op` y)) (false, ne) (zip flags as))).1
FUT
commit "$seg" "scan" 0.1.0
cat >>"$seg/lib/github.com/diku-dk/segmented/segmented.fut" <<'FUT'
-- | One value per segment.
def segmented_reduce [n] 't (op: t -> t -> t) (ne: t) (flags: [n]bool) (as: [n]t) =
  segmented_scan op ne flags as |> zip (rotate 1 flags) |> filter (.0) |> map (.1)
FUT
commit "$seg" "reduce" 0.2.0
seg01=$(git -C "$seg" rev-parse v0.1.0) seg02=$(git -C "$seg" rev-parse v0.2.0)

srt=$repos/sorts
mkdir -p "$srt/lib/github.com/diku-dk/sorts"
git -c init.defaultBranch=main init -q "$srt"
printf 'package github.com/diku-dk/sorts\n\nrequire {\n  github.com/diku-dk/segmented 0.1.0 #%s\n}\n' "$seg01" >"$srt/futhark.pkg"
cat >"$srt/lib/github.com/diku-dk/sorts/insertion_sort.fut" <<'FUT'
-- | Sorts by a less-or-equal.
def insertion_sort [n] 't (leq: t -> t -> bool) (xs: [n]t) : *[n]t =
  loop ys = copy xs for i in 1..<n do
    (loop (ys, j) = (ys, i) while j > 0 && !(leq ys[j - 1] ys[j]) do
       let (a, b) = (copy ys[j - 1], copy ys[j])
       let ys[j - 1] = b
       let ys[j] = a
       in (ys, j - 1)).0
FUT
commit "$srt" "sort" 0.1.0
# 0.2.0 needs segmented 0.2.0: minimal version selection must pick it.
printf 'package github.com/diku-dk/sorts\n\nrequire {\n  github.com/diku-dk/segmented 0.2.0 #%s\n}\n' "$seg02" >"$srt/futhark.pkg"
cat >"$srt/lib/github.com/diku-dk/sorts/segsort.fut" <<'FUT'
import "../segmented/segmented"
import "insertion_sort"
-- | The sums of the segments, sorted.
def sorted_sums [n] (flags: [n]bool) (xs: [n]i32) : []i32 =
  insertion_sort (<=) (segmented_reduce (+) 0 flags xs)
FUT
commit "$srt" "segsort" 0.2.0
git -C "$srt" tag v2.0.0 # a major version that github.com/diku-dk/sorts does not take

untagged=$repos/untagged
mkdir -p "$untagged/lib/example.org/untagged"
git -c init.defaultBranch=main init -q "$untagged"
printf 'package example.org/untagged\n' >"$untagged/futhark.pkg"
printf 'def seven : i32 = 7\n' >"$untagged/lib/example.org/untagged/seven.fut"
commit "$untagged" "no release"

# ---- A project using both by local path ---------------------------------------
proj=$work/proj
mkdir -p "$proj" && cd "$proj" || exit 1
pkg "init" 0 init github.com/me/proj
[ -d lib/github.com/me/proj ] && pass || fail "init: no lib/github.com/me/proj"
printf 'package github.com/me/proj\n\nrequire {\n}\n' >"$work/want"
cmp -s futhark.pkg "$work/want" && pass || fail "init: futhark.pkg is $(cat futhark.pkg)"
pkg "init again" 1 init github.com/me/proj
has "init again" "$work/err" "already exists"
pkg "init ../" 1 init ../x
echo 'def mine : i32 = 1' >lib/github.com/me/proj/mine.fut

pkg "add segmented" 0 add ../repos/segmented 0.1.0
has "add segmented" "$work/out" "^Added new required package github.com/diku-dk/segmented 0.1.0\.$"
has "add segmented" futhark.pkg "^  -- futhorc-source: github.com/diku-dk/segmented \.\./repos/segmented$"
has "add segmented: pinned" futhark.pkg "^  github.com/diku-dk/segmented 0\.1\.0 #$seg01$"
pkg "add sorts" 0 add ../repos/sorts 0.2.0
has "add sorts" futhark.pkg "^  github.com/diku-dk/sorts 0\.2\.0 #"
pkg "add sorts again" 0 add ../repos/sorts 0.2.0
has "add sorts again" "$work/out" "already at version 0.2.0"
pkg "unknown version" 1 add ../repos/sorts 9.9.9
has "unknown version" "$work/err" "does not have a version 9.9.9. Known versions: 0.1.0, 0.2.0"
pkg "major version" 1 add ../repos/sorts 2.0.0
has "major version" "$work/err" "use package path github.com/diku-dk/sorts@2"
pkg "not a version" 1 add ../repos/sorts 1.2
cp futhark.pkg "$work/before"

pkg "sync" 0 sync
[ -f lib/github.com/diku-dk/sorts/segsort.fut ] && pass || fail "sync: no sorts"
has "sync: segmented 0.2.0 (chosen by sorts 0.2.0)" lib/github.com/diku-dk/segmented/segmented.fut segmented_reduce
[ -f lib/github.com/me/proj/mine.fut ] && pass || fail "sync: the project's own lib/ directory is gone"
[ ! -e 'lib~new' ] && [ ! -e 'lib~old' ] && [ -z "$(ls "$TMPDIR")" ] && pass || fail "sync left lib~new, lib~old or a temporary directory"
pkg "check" 0 check
has "check" "$work/out" "^github.com/diku-dk/segmented => 0\.2\.0$"
has "check" "$work/out" "^github.com/diku-dk/sorts => 0\.2\.0$"
pkg "versions" 0 versions github.com/diku-dk/sorts
printf '0.1.0\n0.2.0\n' | cmp -s - "$work/out" && pass || fail "versions: $(cat "$work/out")"

cat >main.fut <<'FUT'
import "lib/github.com/diku-dk/sorts/segsort"
import "lib/github.com/me/proj/mine"
-- ==
-- input { [true, false, true, false, false, true] [4, 5, 1, 1, 1, 2] }
-- output { [2, 3, 9] 1 }
entry main (flags: []bool) (xs: []i32) = (sorted_sums flags xs, mine)
FUT
if "$futhorc" test main.fut >"$work/out" 2>&1; then pass; else fail "the program using both packages:"; cat "$work/out"; fi

pkg "upgrade" 0 upgrade
has "upgrade" "$work/out" "^Upgraded github.com/diku-dk/segmented 0\.1\.0 => 0\.2\.0\.$"
has "upgrade" futhark.pkg "^  github.com/diku-dk/segmented 0\.2\.0 #$seg02$"
pkg "upgrade again" 0 upgrade
has "upgrade again" "$work/out" "^Nothing to upgrade\.$"

# A changed commit behind a version is refused.
sed -i "s/#$seg02/#0000000000000000000000000000000000000000/" futhark.pkg
pkg "changed commit" 1 sync
has "changed commit" "$work/err" "has commit hash $seg02, but expected 0{40}"
[ -f lib/github.com/diku-dk/sorts/segsort.fut ] && pass || fail "a failed sync changed lib/"
sed -i "s/#0\{40\}/#$seg02/" futhark.pkg

pkg "remove" 0 remove github.com/diku-dk/sorts
has "remove" "$work/out" "^Removed github.com/diku-dk/sorts 0\.2\.0\.$"
hasnt "remove" futhark.pkg "sorts"
pkg "remove again" 1 remove github.com/diku-dk/sorts

# A package with no release: a commit version, not pinned.
pkg "commit version" 0 add ../repos/untagged
has "commit version" futhark.pkg "^  example.org/untagged 0\.0\.0-[0-9]{14}\+$(git -C "$untagged" rev-parse HEAD)$"

# fmt keeps comments and puts every line where Futhark does.
printf -- '-- top\npackage   github.com/me/proj\n-- before\nrequire {\n-- inside\n   a.org/b 1.2.3   #abc\n}\n-- end\n' >futhark.pkg
pkg "fmt" 0 fmt
printf -- '-- top\npackage github.com/me/proj\n\n-- before\nrequire {\n  -- inside\n  a.org/b 1.2.3 #abc\n}\n-- end\n' >"$work/want"
cmp -s futhark.pkg "$work/want" && pass || { fail "fmt:"; diff "$work/want" futhark.pkg; }
printf 'package p\nrequire {\n  a.org/b 1.2\n}\n' >futhark.pkg
pkg "bad manifest" 1 sync
has "bad manifest" "$work/err" "^futhark.pkg:3:11: error: expected a version X.Y.Z"
printf 'require {\n  a.org/b 1.2.3\n  a.org/b 1.2.4\n}\n' >futhark.pkg
pkg "required twice" 1 check
has "required twice" "$work/err" "required twice"

# ---- By package path, github.com standing for a local directory -------------------
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.$repos/.insteadOf" GIT_CONFIG_VALUE_0="https://github.com/diku-dk/"
mkdir -p "$work/proj2" && cd "$work/proj2" || exit 1
pkg "add by path" 0 add github.com/diku-dk/sorts
has "add by path: no manifest yet" "$work/out" "futhark.pkg not found"
has "add by path: newest" futhark.pkg "^  github.com/diku-dk/sorts 0\.2\.0 #"
hasnt "add by path: no source line" futhark.pkg "futhorc-source"
pkg "sync by path" 0 sync
[ -f lib/github.com/diku-dk/segmented/segmented.fut ] && pass || fail "sync by path: no segmented"
pkg "versions @2" 0 versions github.com/diku-dk/sorts@2
printf '2.0.0\n' | cmp -s - "$work/out" && pass || fail "versions @2: $(cat "$work/out")"
cp futhark.pkg "$work/before"
pkg "unreachable" 1 add github.com/nobody/nothing
has "unreachable" "$work/err" "cannot fetch package github.com/nobody/nothing from https://github.com/nobody/nothing"
cmp -s futhark.pkg "$work/before" && pass || fail "a failed add changed futhark.pkg"
pkg "unknown command" 1 frobnicate
pkg "help" 0 --help
has "help" "$work/out" "sync"

echo "pkg: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
