#!/usr/bin/env python3
# Writes the large cases of tests/compose (data/PROG.in and data/PROG.out):
# inputs from a fixed seed, expected outputs from independent numpy/Python
# reference implementations (never from futhorc). Sizes cross several
# work-groups so multi-group reductions, scans, histograms and scatters run.
# Float data are chosen so that every result is exact or well inside
# futhark test's tolerance. Run: python3 tests/compose/data/gen.py [DIR]
# (DIR defaults to this file's folder; tests/compose/run.sh passes its
# build folder).
import os
import sys
import numpy as np

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
os.makedirs(HERE, exist_ok=True)
rng = np.random.default_rng(4)
f32 = np.float32


def scalar(v, t):
    if t in ("f32", "f64"):
        v = float(v)
        if v == float("inf"):
            return t + ".inf"
        if v == float("-inf"):
            return "-" + t + ".inf"
        digits = 9 if t == "f32" else 17
        return ("%." + str(digits) + "g") % v + t
    if t == "bool":
        return "true" if v else "false"
    return "%d%s" % (int(v), t)


def array(a, t):
    a = np.asarray(a)
    if a.size == 0:
        return "empty(" + "".join("[%d]" % d for d in a.shape) + t + ")"
    if a.ndim == 1:
        return "[" + ", ".join(scalar(v, t) for v in a) + "]"
    return "[" + ",\n ".join(array(r, t) for r in a) + "]"


def write(name, ins, outs):
    for ext, vals in (("in", ins), ("out", outs)):
        with open(os.path.join(HERE, "%s.%s" % (name, ext)), "w") as f:
            for v, t in vals:
                f.write((array(v, t) if np.ndim(v) > 0 else scalar(v, t)) + "\n")


def ints(lo, hi, shape):
    return rng.integers(lo, hi + 1, size=shape)


def fdiv(a, b):  # Futhark's / on signed integers rounds towards -inf
    return a // b


# mean_variance: integer-valued f64, population variance
xs = ints(0, 100, 3000).astype(np.float64)
m = xs.sum() / len(xs)
write("mean_variance", [(xs, "f64")], [(m, "f64"), (((xs - m) ** 2).sum() / len(xs), "f64")])

# dot_norms
a, b = ints(-100, 100, 3000), ints(-100, 100, 3000)
write("dot_norms", [(a, "i32"), (b, "i32")],
      [((a * b).sum(), "i32"), ((a * a).sum(), "i32"), ((b * b).sum(), "i32")])

# power_iteration: symmetric 48x48, 15 steps
n = 48
mat = rng.uniform(-1, 1, (n, n))
mat = (mat + mat.T) / 2
v0 = rng.uniform(-1, 1, n)
v = v0 / np.sqrt(v0 @ v0)
for _ in range(15):
    w = mat @ v
    v = w / np.sqrt(w @ w)
write("power_iteration", [(15, "i32"), (mat, "f64"), (v0, "f64")], [(v, "f64")])

# filter_positive
xs = ints(-50, 50, 3000)
write("filter_positive", [(xs, "i32")], [(xs[xs > 0], "i32")])

# partition_parity: stable, evens first (Python % is floor mod, like Futhark)
xs = ints(-1000, 1000, 3000)
ev = [x for x in xs if x % 2 == 0]
od = [x for x in xs if x % 2 != 0]
write("partition_parity", [(xs, "i32")], [(np.array(ev + od), "i32"), (len(ev), "i64")])

# histogram_keys: lo -1, width 2 (exact division), k 7
xs = (ints(-12, 60, 3000) / 4.0).astype(f32)
k = 7
bk = np.clip(np.trunc((xs - f32(-1.0)) / f32(2.0)).astype(np.int64), 0, k - 1)
write("histogram_keys", [(k, "i64"), (-1.0, "f32"), (2.0, "f32"), (xs, "f32")],
      [(np.bincount(bk, minlength=k), "i32")])

# hist_normalise: k 5
k = 5
keys, ws = ints(-20, 20, 3000), ints(-9, 9, 3000).astype(f32)
bins = np.zeros(k)
for key, w in zip(keys, ws):
    bins[key % k] += abs(w)
write("hist_normalise", [(k, "i64"), (keys, "i64"), (ws, "f32")], [(bins / bins.sum(), "f32")])

# stencil_2d_loop: 30x40, 4 steps, integer start: every value is exact in f32
g = ints(0, 9, (30, 40)).astype(f32)
out = g.copy()
for _ in range(4):
    nr, nc = out.shape
    pad = np.pad(out, 1, mode="edge")
    out = ((pad[0:nr, 1:nc + 1] + pad[2:nr + 2, 1:nc + 1]) + pad[1:nr + 1, 0:nc]
           + pad[1:nr + 1, 2:nc + 2] + f32(4) * out) / f32(8)
write("stencil_2d_loop", [(4, "i32"), (g, "f32")], [(out, "f32")])

# argmax_abs: many ties, lowest index wins
xs = ints(-50, 50, 3000).astype(f32)
i = int(np.argmax(np.abs(xs)))
write("argmax_abs", [(xs, "f32")], [(abs(xs[i]), "f32"), (i, "i64")])

# argmax_rows
xss = ints(-30, 30, (4, 700))
write("argmax_rows", [(xss, "i32")], [(np.argmax(xss, axis=1), "i64")])

# zip_unzip_pipe (floor division and modulo)
xs = ints(-100000, 100000, 3000)
tens, ones = fdiv(xs, 10), xs % 10
write("zip_unzip_pipe", [(xs, "i32")], [(tens * 100 + tens + ones, "i32"), (ones, "i32")])

# record_stats
xs = ints(-1000, 1000, 3000)
ys = xs * xs - 3 * xs
write("record_stats", [(xs, "i32")], [(ys.max() - ys.min(), "i32"), (ys.max(), "i32"), (ys.sum(), "i64")])

# poly_dot
xs, ws = ints(-100, 100, 3000), ints(-40, 40, 3000) / 4.0
write("poly_dot", [(xs, "i32"), (ws, "f64")], [((xs * xs).sum(), "i32"), ((xs * ws).sum(), "f64")])

# flatten_rows
img = ints(0, 255, (30, 500))
write("flatten_rows", [(17, "i32"), (img, "i32")], [(np.minimum(255, img + 17).sum(axis=1), "i32")])

# exclusive_scan
s_raw = ints(-5, 20, 3000)
s = np.maximum(0, s_raw)
write("exclusive_scan", [(s_raw, "i64")],
      [(np.cumsum(s) - s, "i64")])

# row_scan
xss = ints(-30, 30, (3, 900)).astype(f32)
write("row_scan", [(xss, "f32")], [(np.cumsum(xss * xss, axis=1), "f32")])

# shared_producer
xs, perm = ints(-1000, 1000, 3000), rng.permutation(3000)
sc = xs * 3 + 1
write("shared_producer", [(xs, "i32"), (perm, "i64")], [(sc.sum(), "i32"), (sc[perm], "i32")])

# update_between_scan
xs = ints(-1000, 1000, 3000)
ys = xs + 1
ys[0] = 0
write("update_between_scan", [(xs, "i32")], [(np.cumsum(ys * 2), "i32")])

# gradient_descent
xs = ints(0, 128, 500) / 64.0
ys = 3 * xs - 2 + ints(-8, 8, 500) / 64.0
w = b = 0.0
for _ in range(30):
    e = w * xs + b - ys
    gw, gb = (e * xs).sum() / len(xs), e.sum() / len(xs)
    w, b = w - 0.05 * gw, b - 0.05 * gb
write("gradient_descent", [(30, "i32"), (0.05, "f64"), (xs, "f64"), (ys, "f64")], [(w, "f64"), (b, "f64")])

# tabulate_rowsums
nn, mm = 200, 900
ii, jj = np.meshgrid(np.arange(nn), np.arange(mm), indexing="ij")
write("tabulate_rowsums", [(nn, "i64"), (mm, "i64")], [(((ii + 1) * (jj + 1) % 7).sum(axis=1), "i64")])

# map3_blend: integer ends, factors in steps of 1/8: exact
xs, ys = ints(-100, 100, 3000).astype(f32), ints(-100, 100, 3000).astype(f32)
ts = (ints(-4, 12, 3000) / 8.0).astype(f32)
t = np.clip(ts, 0, 1)
write("map3_blend", [(xs, "f32"), (ys, "f32"), (ts, "f32")], [((xs + (ys - xs) * t).max(), "f32")])

# cdf_rank
k = 6
xs = ints(-20, 80, 3000)
bk = np.clip(fdiv(xs, 10), 0, k - 1)
cdf = np.cumsum(np.bincount(bk, minlength=k))
write("cdf_rank", [(k, "i64"), (xs, "i32")], [(cdf[bk], "i32")])

# filter_sum
xs = ints(-40, 40, 3000)
ys = xs * xs - 1
kept = ys[ys % 3 == 0]
write("filter_sum", [(xs, "i32")], [(kept.sum(), "i32"), (len(kept), "i64")])

# map_and_total
xs = ints(-100, 100, 3000).astype(f32)
write("map_and_total", [(1.5, "f32"), (xs, "f32")], [(xs * f32(1.5), "f32"), (xs.sum(), "f32")])


# loop_in_map
def collatz(x):
    s = 0
    while x > 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        s += 1
    return s


xs = ints(1, 5000, 1000)
st = np.array([collatz(int(x)) for x in xs])
write("loop_in_map", [(xs, "i64")], [(st.max(), "i32"), (st.sum(), "i64")])

# inverse_permutation
perm = rng.permutation(3000)
inv = np.argsort(perm)
xs = ints(-100, 100, 3000).astype(f32)
write("inverse_permutation", [(perm, "i64"), (xs, "f32")], [(inv, "i64"), (xs[inv], "f32")])

# scan_and_reduce_shared
xs = ints(-1000, 1000, 3000)
gains = xs - 5
write("scan_and_reduce_shared", [(xs, "i32")], [(np.maximum.accumulate(gains), "i32"), (gains.sum(), "i32")])
