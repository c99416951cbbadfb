#!/usr/bin/env bash
# futhorc doc: the pages of a directory of programs (abstracts, synopsis,
# values with their checked types, types, module types, modules and their
# members, operators, doc comments' Markdown and links across files, local
# and "ignore" left out, the indexes), well-formed HTML
# (tests/doc/check_html.py), the prelude's page, and that page rendered by
# headless Chromium: a screenshot showing the page's bar and text, and the
# rendered DOM holding the prelude's names. Ends with "doc: N passed, N
# failed"; exits 1 if anything failed.
#
#   usage: tests/doc/run.sh      (FUTHORC=path selects another compiler)
suite=doc
source "$(dirname "$0")/../lib.sh"

# has NAME FILE PATTERN: FILE has a line matching the extended regex.
has() { if grep -Eq -- "$3" "$2"; then pass; else fail "$1: no /$3/ in $2"; fi; }

src=$work/src
mkdir -p "$src/sub"
cat >"$src/a.fut" <<'FUT'
-- | Vectors and their operations.

-- | The dot product of `xs` and `ys`; see also `norm`@term.
--
-- - commutative
-- - **linear** in *each* argument
--
--     dot [1, 2] [3, 4] == 11
def dot [n] (xs: [n]f32) (ys: [n]f32) : f32 = f32.sum (map2 (*) xs ys)

-- | Its length.
def norm [n] (xs: [n]f32) : f32 = f32.sqrt (dot xs xs)

-- | A pair of `t`.
type pair 't = (t, t)

-- | Things with a size.
module type sized = { type t val size : t -> i64 }

-- | Sized rows.
module rows : sized = { type t = (f32, f32) def size (_: t) = 2i64 }

module ops = {
  -- | Elementwise sum.
  def (+^) [n] (xs: [n]f32) (ys: [n]f32) : [n]f32 = map2 (+) xs ys
}

local def secret = 42
FUT
cat >"$src/sub/b.fut" <<'FUT'
-- | Uses `dot`@term of the other file.
--
-- ## See also
--
-- The `norm`@term.

import "../a"

-- | The angle's cosine, from `dot`@term and `norm`@term.
def cosine [n] (xs: [n]f32) (ys: [n]f32) : f32 = dot xs ys / (norm xs * norm ys)
FUT
printf -- '-- | ignore\n\ndef t = 1\n' >"$src/tests.fut"

out=$work/html
"$futhorc" doc "$src" -o "$out" >"$work/log" 2>&1 && pass || { fail "futhorc doc"; cat "$work/log"; }
a=$out/a.html b=$out/sub/b.html
for f in "$a" "$b" "$out/index.html" "$out/doc-index.html" "$out/style.css"; do [ -f "$f" ] && pass || fail "no $f"; done
[ ! -e "$out/tests.html" ] && pass || fail "a file whose abstract is ignore was documented"
has "the abstract" "$a" '^<p>Vectors and their operations.</p>$'
has "a value's checked type" "$a" 'id="term:dot"'
has "a value's signature" "$a" 'val dot \[n\] : \(xs: \[n\]f32\) -&gt; \(ys: \[n\]f32\) -&gt; f32'
has "a link in the file" "$a" '<a href="a.html#term:norm"><code>norm</code></a>'
has "a list" "$a" '^<li><strong>linear</strong> in <em>each</em> argument</li>$'
has "an indented code block" "$a" '^<pre>dot \[1, 2\] \[3, 4\] == 11$'
has "a type" "$a" '<pre class="sig">type pair .t = \(t, t\)</pre>'
has "a module type" "$a" 'id="mtype:sized"'
has "an ascribed module" "$a" '<pre class="sig">module rows : sized</pre>'
has "a module's member" "$a" 'id="term:ops\.\+\^"'
has "an operator" "$a" 'val \(\+\^\) \[n\]'
has "the synopsis" "$a" '<a href="#term:cosine|<a href="#term:dot"><code>val dot'
grep -q "secret" "$a" && fail "a local definition was documented" || pass
has "a link to another file" "$b" '<a href="../a.html#term:dot"><code>dot</code></a>'
has "a page in a subdirectory finds the style" "$b" 'href="../style.css"'
has "a heading" "$b" '^<h4>See also</h4>$'
has "the file index" "$out/index.html" '<a href="sub/b.html">sub/b.fut</a>'
has "the name index" "$out/doc-index.html" '<a href="a.html#term:ops.\+\^"><code>ops.\+\^</code></a>'
python3 tests/doc/check_html.py html "$out"/*.html "$out"/sub/*.html && pass || fail "malformed HTML"
mkdir -p "$work/bad" && printf 'def f (x: i32) : bool = x\n' >"$work/bad/x.fut"
"$futhorc" doc "$work/bad" -o "$work/badout" >/dev/null 2>&1 && fail "a program with a type error" || pass
"$futhorc" doc "$src" >/dev/null 2>&1 && fail "no -o" || pass

# The prelude, in a browser.
pre=$work/prelude
"$futhorc" doc --prelude -o "$pre" >"$work/log" 2>&1 && pass || { fail "futhorc doc --prelude"; cat "$work/log"; }
has "the prelude's map" "$pre/prelude.html" 'id="term:map"'
python3 tests/doc/check_html.py html "$pre"/*.html && pass || fail "malformed prelude HTML"
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    fail "no Chromium to render the prelude's page (make deps installs chromium)"
else
    flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/chromium")
    timeout 120 "$browser" "${flags[@]}" --window-size=1000,1400 --screenshot="$work/shot.png" \
        "file://$pre/prelude.html" >/dev/null 2>&1
    python3 tests/doc/check_html.py screenshot "$work/shot.png" && pass || fail "the screenshot of the prelude's page"
    timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$pre/prelude.html" >"$work/dom.html" 2>/dev/null
    has "the rendered page" "$work/dom.html" 'val reduce \[n\] .a : \(op: a -&gt; a -&gt; a\)'
fi

echo "doc: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
