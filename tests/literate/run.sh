#!/usr/bin/env bash
# futhorc literate: the Markdown of a program (text, code, test blocks,
# directive prompts and results, failures), every directive (values, :img
# of each element type, :plot2d with a size and with a record, :gnuplot,
# :covert, :brief, file: parameters, :video when ffmpeg is installed),
# the PNG files (signature, size), the reuse of files across runs and the
# removal of unused ones, --stop-on-error, and examples/literate.fut.
# Ends with "literate: N passed, N failed"; exits 1 if anything failed.
#
#   usage: tests/literate/run.sh      (FUTHORC=path selects another compiler)
suite=literate
source "$(dirname "$0")/../lib.sh"
futhorc=$(realpath "$futhorc")

# png_size FILE: "W H" from a PNG's IHDR, or nothing if FILE is not a PNG.
png_size() {
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return
    od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}
# png_is NAME FILE W H
png_is() {
    local got
    got=$(png_size "$2")
    [ "$got" = "$3 $4" ] && pass || fail "$1: $2 is not a $3x$4 PNG (got '$got')"
}
# md_has NAME PATTERN: the Markdown has a line matching the regex.
md_has() { if grep -Eq -- "$2" "$md"; then pass; else fail "$1: no line /$2/ in $md"; fi; }

d=$work/doc
mkdir -p "$d/data"
printf '[1i32, 2i32, 3i32]\n' >"$d/data/xs.in"
cat >"$d/p.fut" <<'FUT'
-- Some text.
-- More text.
def add (x: i32) (y: i32) = x + y

-- > add 2 3

-- > add 2 3.5f32

entry pair (n: i64) : (i64, {a: i32, b: bool}) = (n, {a = 1, b = true})

-- > pair 4

def grey : [][]f32 = [[0, 0.5], [1, 0.25], [0.75, 1]]
def argb : [][]u32 = [[0xff0000, 0x00ff00, 0x0000ff]]
def bytes : [][]u8 = [[0, 128, 255, 64]]
def bools : [][]bool = [[true, false], [false, true]]

-- > :img grey

-- > :img argb;
-- file: colours.png

-- > :img bytes

-- > :covert :img bools

-- > :brief :img bools;
-- file: bools.png

def line (n: i64) : ([]f32, []f32) = (map f32.i64 (iota n), map (\i -> f32.i64 (i * i)) (iota n))

-- > :plot2d line 10;
-- size: (300,200)

-- > :plot2d {a = line 5, b = line 8}

-- > :gnuplot {pts = line 6};
-- set title "squares"
-- plot pts using 1:2 with points

-- > let xs = $loaddata "data/xs.in" in map_add xs

def map_add (xs: []i32) = map (add 1) xs

def frames : [4][8][8]f32 = tabulate_3d 4 8 8 (\t y x -> f32.i64 ((x + y + t) % 4) / 3)

-- ==
-- input { 1 2 } output { 3 }
entry main (x: i32) (y: i32) = add x y
FUT
cp "$d/p.fut" "$d/p0.fut"
if command -v ffmpeg >/dev/null; then printf '\n-- > :video frames;\n-- fps: 4\n' >>"$d/p.fut"; fi

md=$d/p.md
(cd "$work" && "$futhorc" literate doc/p.fut >"$work/out" 2>"$work/err")
rc=$?
[ "$rc" = 1 ] && pass || fail "a failing directive: status $rc, want 1"
grep -q "add 2 3.5f32 failed" "$work/err" && pass || fail "the failure is not reported on stderr"
cat >"$work/want_head.md" <<'MD'
Some text.
More text.

```futhark
def add (x: i32) (y: i32) = x + y
```

```
> add 2 3
```

```
5i32
```


```
> add 2 3.5f32
```

**FAILED**
MD
head -n "$(wc -l <"$work/want_head.md")" "$md" | cmp -s - "$work/want_head.md" && pass || {
    fail "the start of the Markdown:"; diff "$work/want_head.md" <(head -n "$(wc -l <"$work/want_head.md")" "$md"); }
md_has "a declared tuple and record" '^\(4i64, \{a=1i32, b=true\}\)$'
md_has "an image" '^!\[\]\(p-img/[0-9a-f]{16}-img\.png\)$'
md_has "an image's file: parameter" '^!\[\]\(p-img/colours\.png\)$'
md_has "a plot" '^!\[\]\(p-img/[0-9a-f]{16}-plot\.png\)$'
md_has ":brief hides the parameters" '^> :img bools$'
md_has "\$loaddata relative to the program" '^\[2i32, 3i32, 4i32\]$'
md_has "a test block is code" '^-- input \{ 1 2 \} output \{ 3 \}$'
grep -q "covert" "$md" && fail ":covert shows its directive" || pass
img=$d/p-img
sizes=$(for f in "$img"/*-img.png; do png_size "$f"; done | sort | tr '\n' ';')
[ "$sizes" = "2 2;2 3;4 1;" ] && pass || fail "the images of hashed names are $sizes, want 2x2 (covert), 2x3 (grey), 4x1 (bytes)"
png_is "ARGB" "$img/colours.png" 3 1
png_is "booleans" "$img/bools.png" 2 2
pngs=$(ls "$img"/*.png | wc -l)
[ "$pngs" -ge 8 ] && pass || fail "$pngs PNG files, want 8 or more"
for f in "$img"/*-plot.png; do [ -n "$(png_size "$f")" ] && pass || fail "$f is not a PNG"; done
if command -v ffmpeg >/dev/null; then
    md_has "a video" '^!\[\]\(p-img/[0-9a-f]{16}-video\.webm\)$'
fi

# A second run reuses the files; a directive gone, its file goes.
before=$(ls -l --time-style=+%s.%N "$img" | md5sum)
(cd "$work" && "$futhorc" literate doc/p.fut >/dev/null 2>&1)
after=$(ls -l --time-style=+%s.%N "$img" | md5sum)
[ "$before" = "$after" ] && pass || fail "the second run made its files again"
grep -v "file: colours.png" "$d/p.fut" | sed 's/-- > :img argb;/-- > :img argb/' >"$d/p2.fut" && mv "$d/p2.fut" "$d/p.fut"
(cd "$work" && "$futhorc" literate doc/p.fut >/dev/null 2>&1)
[ ! -e "$img/colours.png" ] && pass || fail "an unused file was kept"

# --stop-on-error writes nothing; -o names the Markdown and its image directory.
rm -f "$md"
(cd "$work" && "$futhorc" literate --stop-on-error doc/p.fut >/dev/null 2>&1)
[ $? = 1 ] && [ ! -e "$md" ] && pass || fail "--stop-on-error"
grep -v "3.5f32" "$d/p0.fut" >"$d/ok.fut"
"$futhorc" literate -o "$d/other.md" "$d/ok.fut" >/dev/null 2>"$work/err" && pass || { fail "a program whose directives all work"; cat "$work/err"; }
[ -s "$d/other.md" ] && [ -d "$d/other-img" ] && pass || fail "-o: no other.md and other-img/"
"$futhorc" literate "$work/none.fut" >/dev/null 2>&1 && fail "a missing program" || pass
printf 'def f (x: i32) : bool = x\n-- > f 1\n' >"$d/bad.fut"
"$futhorc" literate "$d/bad.fut" >/dev/null 2>"$work/err" && fail "a program with a type error" || pass

# The example renders: a value, an image and a plot.
cp examples/literate.fut "$work/example.fut"
"$futhorc" literate "$work/example.fut" >/dev/null 2>"$work/err" && pass || { fail "examples/literate.fut"; cat "$work/err"; }
md=$work/example.md
md_has "the example's value" '^100i32$'
png_is "the example's image" "$(ls "$work"/example-img/*-img.png)" 360 240
[ -n "$(png_size "$(ls "$work"/example-img/*-plot.png)")" ] && pass || fail "the example's plot"

echo "literate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
