#!/usr/bin/env python3
"""futhorc's GPU benchmark suite: compiles each bench/*.fut with a futhorc
backend, runs it on numpy-generated inputs (binary data format on stdin),
checks its results against a numpy reference, takes the median run time,
and compares it with the peer timings of /work/shared/bench/peers.py.

  python3 bench/run.py --futhorc PATH --backend opencl|c [--small]
                       [--out DIR] [--work DIR] [--peers FILE | --peers run:PEERS.PY]
                       [--only a,b] [--skip a,b] [--runs N] [--timeout S] [--keep]
                       [--compile-option OPT]... [--exe-option OPT]...

Writes DIR/RESULTS.md (also printed) and DIR/results.json.  Needs python3
and numpy only; peers.py (jax, cupy, torch) runs as a subprocess."""
import argparse, datetime, json, math, os, shutil, subprocess, sys, tempfile, time
import numpy as np

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
SEED = 20261121          # inputs are the same from run to run
RUNS = 20                # measured runs after the executable's one warm-up, as peers.py
COMPILE_TIMEOUT_S = 600  # the C compiler on a big generated file can take a while
RUN_TIMEOUT_S = 300      # one executable, all its runs together
PEERS_TIMEOUT_S = 1200   # peers.py compiles with XLA and runs ~25 timings

# ---------------------------------------------------------------------------
# Futhark's binary data format: 'b', version 2, rank, 4-byte type tag, dims
# as i64, then the elements, all little-endian.

TYPE_TAGS = {"i8": ("  i8", "<i1"), "i16": (" i16", "<i2"), "i32": (" i32", "<i4"),
             "i64": (" i64", "<i8"), "u8": ("  u8", "<u1"), "u16": (" u16", "<u2"),
             "u32": (" u32", "<u4"), "u64": (" u64", "<u8"), "f32": (" f32", "<f4"),
             "f64": (" f64", "<f8"), "bool": ("bool", "|b1")}
TAG_DTYPES = {tag.encode(): np.dtype(dt) for tag, dt in TYPE_TAGS.values()}
DTYPE_TAGS = {np.dtype(dt).name: tag.encode() for tag, dt in TYPE_TAGS.values()}


def write_value(fh, value):
    """Writes one numpy array or numpy scalar in the binary data format."""
    arr = np.asarray(value)
    tag = DTYPE_TAGS[arr.dtype.name]
    fh.write(b"b\x02" + bytes([arr.ndim]) + tag)
    fh.write(np.asarray(arr.shape, dtype="<i8").tobytes())
    fh.flush()
    np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tofile(fh)


def read_values(path):
    """Reads every binary value in a file: a list of numpy arrays (0-d for scalars)."""
    raw = np.fromfile(path, dtype=np.uint8)
    buf = memoryview(raw)
    pos, values = 0, []
    while True:
        while pos < len(raw) and raw[pos] in b" \t\r\n":
            pos += 1
        if pos >= len(raw):
            return values
        if bytes(buf[pos:pos + 2]) != b"b\x02":
            raise ValueError(f"not a binary value at byte {pos}")
        rank, tag = int(raw[pos + 2]), bytes(buf[pos + 3:pos + 7])
        if tag not in TAG_DTYPES:
            raise ValueError(f"unknown type tag {tag!r}")
        dt = TAG_DTYPES[tag]
        shape = tuple(int(d) for d in np.frombuffer(buf[pos + 7:pos + 7 + 8 * rank], "<i8"))
        pos += 7 + 8 * rank
        count = int(np.prod(shape, dtype=np.int64))
        end = pos + count * dt.itemsize
        if end > len(raw):
            raise ValueError("truncated binary value")
        values.append(np.frombuffer(buf[pos:end], dt).reshape(shape).astype(dt.newbyteorder("=")))
        pos = end


# ---------------------------------------------------------------------------
# Checks: each returns (ok, message).

def check_shape(got, exp):
    """Shape and element type must match exactly."""
    if got.shape != exp.shape or got.dtype != exp.dtype:
        return False, f"got {got.dtype}{list(got.shape)}, expected {exp.dtype}{list(exp.shape)}"
    return True, ""


def check_exact(got, exp):
    """Integer and permutation results must be equal."""
    ok, msg = check_shape(got, exp)
    if not ok:
        return ok, msg
    bad = int(np.count_nonzero(got != exp))
    return bad == 0, "exact" if bad == 0 else f"{bad} of {exp.size} elements differ"


def check_close(got, exp, rtol, scale=None):
    """Floats: |got - exp| <= rtol * scale everywhere; scale is a number or an
    array like exp (default: the largest |exp|, as Futhark's comparison).  For
    sums, scale = the sum of the terms' magnitudes, which bounds f32 rounding;
    where it is 0 (an empty row), the result must be exactly 0."""
    ok, msg = check_shape(got, np.asarray(exp, dtype=np.float32))
    if not ok:
        return ok, msg
    if not np.all(np.isfinite(got)):
        return False, "non-finite results"
    err = np.abs(got.astype(np.float64) - np.asarray(exp, dtype=np.float64))
    if scale is None:
        scale = np.max(np.abs(exp), initial=0.0)
    rel = err / np.maximum(np.asarray(scale, dtype=np.float64), 1e-30)
    worst = float(np.max(rel, initial=0.0))
    return worst <= rtol, f"max error {worst:.3g} of the scale (tolerance {rtol:g})"


def check_all(results):
    """Combines several (ok, message) checks."""
    return all(ok for ok, _ in results), "; ".join(m for _, m in results)


# ---------------------------------------------------------------------------
# Workloads.  Each has: the program, the peers.py row it is compared with,
# sizes (full = peers.py's, small = a quick local check), an input
# generator, a reference check, and the bytes (as peers.py counts them) or
# flops for an effective rate.

def f32s(rng, *shape):
    """Uniform f32 in [0, 1), like the peers' inputs."""
    return rng.random(shape, dtype=np.float32)


# Error of a whole-array f32 sum, relative to the sum of magnitudes.  Any
# parallel (tree or chunked) reduction of 2^28 values stays near 1e-6; a
# single sequential f32 accumulation over millions of values does not (it
# stalls once the running sum's ulp outgrows the terms), and neither does a
# reduction that drops one element in 10^4.
SUM_RTOL = 1e-4


def gen_sum(rng, s):
    return [f32s(rng, s["n"])]

def ref_sum(inp, out):
    x = inp[0]
    return check_close(out[0], x.sum(dtype=np.float64), SUM_RTOL, np.abs(x).sum(dtype=np.float64))

def gen_dot(rng, s):
    return [f32s(rng, s["n"]), f32s(rng, s["n"])]

def ref_dot(inp, out):
    prod = inp[0].astype(np.float64) * inp[1]
    return check_close(out[0], prod.sum(), SUM_RTOL, np.abs(prod).sum())

def ref_saxpy(inp, out):
    return check_close(out[0], np.float32(2.5) * inp[0] + inp[1], 1e-6)

def gen_scan(rng, s):
    return [rng.integers(0, 100, s["n"], dtype=np.int32)]

def ref_scan(inp, out):
    return check_exact(out[0], np.cumsum(inp[0], dtype=np.int64).astype(np.int32))

def gen_hist(rng, s):
    return [np.int64(s["bins"]), rng.integers(0, s["bins"], s["n"], dtype=np.int32)]

def ref_hist(inp, out):
    return check_exact(out[0], np.bincount(inp[1], minlength=int(inp[0])).astype(np.int32))

def gen_gather(rng, s):
    return [f32s(rng, s["n"]), rng.permutation(s["n"]).astype(np.int32)]

def ref_gather(inp, out):
    return check_exact(out[0], inp[0][inp[1]])

def gen_transpose(rng, s):
    return [f32s(rng, s["rows"], s["cols"])]

def ref_transpose(inp, out):
    return check_exact(out[0], np.ascontiguousarray(inp[0].T))

def gen_matmul(rng, s):
    return [f32s(rng, s["n"], s["k"]), f32s(rng, s["k"], s["m"])]

def ref_matmul(inp, out):
    a, b = inp[0].astype(np.float64), inp[1].astype(np.float64)
    return check_close(out[0], a @ b, 1e-4, np.abs(a) @ np.abs(b))


def mandel_ref(n, limit, rows):
    """peers.py's Mandelbrot counts for the given rows, in f32."""
    step = np.float32(3) / np.float32(n - 1)
    xs = np.float32(-2) + np.arange(n, dtype=np.float32) * step
    ys = np.float32(-1.5) + np.asarray(rows, dtype=np.float32) * step
    cr, ci = np.meshgrid(xs, ys)
    zr, zi = np.zeros_like(cr), np.zeros_like(cr)
    cnt = np.zeros(cr.shape, np.int32)
    for _ in range(limit):
        zr2, zi2 = zr * zr, zi * zi
        inside = zr2 + zi2 < 4
        zr, zi = (np.where(inside, zr2 - zi2 + cr, zr),
                  np.where(inside, np.float32(2) * zr * zi + ci, zi))
        cnt += inside
    return cnt


MANDEL_SAMPLE_ROWS = 128     # full-size reference rows (all 4096 take a minute in numpy)
MANDEL_MISMATCH = 1e-3       # fraction of pixels allowed to differ (fma, rounding at the edge of the set)

def gen_mandel(rng, s):
    return [np.int64(s["n"]), np.int32(s["limit"])]

def ref_mandel(inp, out):
    n, limit = int(inp[0]), int(inp[1])
    got = out[0]
    if got.shape != (n, n) or got.dtype != np.int32:
        return False, f"got {got.dtype}{list(got.shape)}, expected int32[{n}, {n}]"
    rows = np.arange(n) if n <= MANDEL_SAMPLE_ROWS else \
        np.unique(np.r_[0, n - 1, np.random.default_rng(SEED).integers(0, n, MANDEL_SAMPLE_ROWS)])
    bad = int(np.count_nonzero(got[rows] != mandel_ref(n, limit, rows)))
    frac = bad / (len(rows) * n)
    return frac <= MANDEL_MISMATCH, f"{bad} of {len(rows) * n} sampled pixels differ"


NBODY_SAMPLE = 512           # bodies whose acceleration the reference computes
NBODY_SOFTENING = 1e-3

def gen_nbody(rng, s):
    pos = f32s(rng, s["n"], 3)
    return [pos[:, 0].copy(), pos[:, 1].copy(), pos[:, 2].copy(), f32s(rng, s["n"])]

def ref_nbody(inp, out):
    p = np.stack(inp[:3], 1).astype(np.float64)
    m = inp[3].astype(np.float64)
    n = len(m)
    idx = np.arange(n) if n <= NBODY_SAMPLE else np.unique(
        np.r_[0, n - 1, np.random.default_rng(SEED).integers(0, n, NBODY_SAMPLE)])
    d = p[None, :, :] - p[idx, None, :]
    r2 = (d * d).sum(-1) + NBODY_SOFTENING
    terms = d * (m[None, :] / (r2 * np.sqrt(r2)))[:, :, None]
    exp, scale = terms.sum(1), np.abs(terms).sum(1)
    res = []
    for c in range(3):
        if out[c].shape != (n,):
            return False, f"component {c}: got shape {list(out[c].shape)}, expected [{n}]"
        res.append(check_close(out[c][idx], exp[:, c], 1e-3, scale[:, c]))
    return check_all(res)


def gen_jacobi(rng, s):
    return [np.int32(s["steps"]), f32s(rng, s["rows"], s["cols"])]

def ref_jacobi(inp, out):
    g = inp[1]
    for _ in range(int(inp[0])):
        p = np.pad(g, 1, mode="edge")
        g = np.float32(0.2) * (p[1:-1, 1:-1] + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:])
    return check_close(out[0], g, 1e-5)


def gen_kmeans(rng, s):
    pts = f32s(rng, s["n"], s["d"])
    return [pts, pts[:s["k"]].copy()]

def ref_kmeans(inp, out):
    pts, cs = inp
    k, d = cs.shape
    best = np.zeros(len(pts), np.int64)
    best_d = np.full(len(pts), np.inf)
    for c in range(k):       # first nearest centre wins, as the program and argmin do
        dist = ((pts.astype(np.float64) - cs[c]) ** 2).sum(1)
        closer = dist < best_d
        best[closer], best_d[closer] = c, dist[closer]
    counts = np.bincount(best, minlength=k)
    sums = np.stack([np.bincount(best, weights=pts[:, j], minlength=k) for j in range(d)], 1)
    return check_close(out[0], sums / np.maximum(counts, 1)[:, None], 1e-3)


def gen_trmv(rng, s):
    # A full random matrix: the program must ignore the part above the diagonal.
    return [f32s(rng, s["n"], s["n"]), f32s(rng, s["n"])]

def ref_trmv(inp, out):
    a, x = np.tril(inp[0]).astype(np.float64), inp[1].astype(np.float64)
    return check_close(out[0], a @ x, 1e-4, np.abs(a) @ np.abs(x))


def gen_trmv_packed(rng, s):
    # The lower triangle of a full random matrix, row after row.
    a, x = gen_trmv(rng, s)
    return [a[np.tril_indices(s["n"])], x]

def ref_trmv_packed(inp, out):
    n = len(inp[1])
    a = np.zeros((n, n))
    a[np.tril_indices(n)] = inp[0]
    return ref_trmv([a, inp[1]], out)


def gen_spmv(rng, s):
    rows = s["rows"]
    lens = rng.integers(0, s["max_row"] + 1, rows)
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    nnz = int(offsets[-1])
    return [offsets, rng.integers(0, rows, nnz, dtype=np.int32), f32s(rng, nnz), f32s(rng, rows)]

def ref_spmv(inp, out):
    offsets, cols, vals, x = inp
    rows = len(offsets) - 1
    row_of = np.repeat(np.arange(rows), np.diff(offsets))
    prod = vals.astype(np.float64) * x[cols]
    exp = np.bincount(row_of, weights=prod, minlength=rows)
    return check_close(out[0], exp, 1e-5, np.bincount(row_of, weights=np.abs(prod), minlength=rows))


def irregular_lengths(s):
    """The row lengths of the irregular workloads: s["rows"] of 0 to s["max_row"]
    elements and, in the middle, one of s["long"]; the same for the flat
    workloads of the same sizes, which thus have as many elements."""
    lens = np.random.default_rng([SEED, s["rows"], s["long"]]).integers(0, s["max_row"] + 1, s["rows"] + 1)
    lens[s["rows"] // 2] = s["long"]
    return lens.astype(np.int64)

def gen_segred(rng, s):
    lens = irregular_lengths(s)
    return [lens, f32s(rng, int(lens.sum()))]

def ref_segred(inp, out):
    lens, x = inp
    row_of = np.repeat(np.arange(len(lens)), lens)
    exp = np.bincount(row_of, weights=x.astype(np.float64), minlength=len(lens))
    return check_close(out[0], exp, SUM_RTOL, exp)   # x >= 0: each row's sum bounds its rounding

def gen_segscan(rng, s):
    lens = irregular_lengths(s)
    return [lens, rng.integers(0, 100, int(lens.sum()), dtype=np.int32)]

def ref_segscan(inp, out):
    lens, x = inp
    total = np.cumsum(x, dtype=np.int64)
    starts = np.cumsum(lens) - lens
    before = np.where(starts > 0, total[np.maximum(starts - 1, 0)], 0)
    return check_exact(out[0], (total - np.repeat(before, lens)).astype(np.int32))

def flat_gen(gen):
    """The flat counterpart's input: the elements of gen's, without the rows."""
    return lambda rng, s: gen(rng, s)[1:]

def simple_gen(count):
    return lambda rng, s: [f32s(rng, s["n"]) for _ in range(count)]


IRREGULAR_SIZES = {"rows": 10 ** 6, "max_row": 1000, "long": 10 ** 8}
IRREGULAR_SMALL = {"rows": 300, "max_row": 20, "long": 1000}
IRREGULAR_CPU = {"rows": 10 ** 5, "max_row": 1000, "long": 10 ** 7}

# name, program, peers.py bench, full sizes, small sizes, gen, check,
# bytes(sizes) or None, flops(sizes) or None
WORKLOADS = [
    ("sum", "sum", "sum_f32_2^28", {"n": 1 << 28}, {"n": 1000}, gen_sum, ref_sum,
     lambda s: 4 * s["n"], None),
    ("dot", "dot", "dot_f32_2^27", {"n": 1 << 27}, {"n": 1000}, gen_dot, ref_dot,
     lambda s: 8 * s["n"], None),
    ("saxpy", "saxpy", "saxpy_f32_2^27", {"n": 1 << 27}, {"n": 1000}, simple_gen(2), ref_saxpy,
     lambda s: 12 * s["n"], None),
    ("scan", "scan", "scan_i32_2^27", {"n": 1 << 27}, {"n": 1000}, gen_scan, ref_scan,
     lambda s: 8 * s["n"], None),
    ("hist256", "hist", "hist_256_2^27", {"bins": 256, "n": 1 << 27}, {"bins": 256, "n": 5000},
     gen_hist, ref_hist, lambda s: 4 * s["n"], None),
    ("hist1m", "hist", "hist_1048576_2^27", {"bins": 1 << 20, "n": 1 << 27},
     {"bins": 1 << 12, "n": 5000}, gen_hist, ref_hist, lambda s: 4 * s["n"], None),
    ("gather", "gather", "gather_f32_2^26", {"n": 1 << 26}, {"n": 1000}, gen_gather, ref_gather,
     lambda s: 12 * s["n"], None),
    ("transpose", "transpose", "transpose_f32_8192", {"rows": 8192, "cols": 8192},
     {"rows": 37, "cols": 53}, gen_transpose, ref_transpose,
     lambda s: 8 * s["rows"] * s["cols"], None),
    ("matmul", "matmul", "matmul_f32_4096", {"n": 4096, "k": 4096, "m": 4096},
     {"n": 17, "k": 23, "m": 19}, gen_matmul, ref_matmul,
     None, lambda s: 2 * s["n"] * s["k"] * s["m"]),
    ("mandelbrot", "mandelbrot", "mandelbrot_4096_256", {"n": 4096, "limit": 256},
     {"n": 64, "limit": 64}, gen_mandel, ref_mandel, None, None),
    ("nbody", "nbody", "nbody_acc_32768", {"n": 32768}, {"n": 200}, gen_nbody, ref_nbody,
     None, lambda s: 20 * s["n"] ** 2),
    ("jacobi", "jacobi", "jacobi5_8192_x10", {"rows": 8192, "cols": 8192, "steps": 10},
     {"rows": 30, "cols": 41, "steps": 10}, gen_jacobi, ref_jacobi,
     lambda s: s["steps"] * 8 * s["rows"] * s["cols"], None),
    ("kmeans", "kmeans", "kmeans_step_2^20x16x32", {"n": 1 << 20, "d": 16, "k": 32},
     {"n": 1000, "d": 16, "k": 32}, gen_kmeans, ref_kmeans, None, None),
    ("trmv", "trmv", "trmv_f32_8192", {"n": 8192}, {"n": 50}, gen_trmv, ref_trmv,
     lambda s: 4 * s["n"] * (s["n"] + 1) // 2, None),
    ("spmv", "spmv", "spmv_csr_2^20x16", {"rows": 1 << 20, "max_row": 32},
     {"rows": 300, "max_row": 32}, gen_spmv, ref_spmv, None, None),
    ("trmv_packed", "trmv_packed", "trmv_f32_8192", {"n": 8192}, {"n": 50}, gen_trmv_packed, ref_trmv_packed,
     lambda s: 4 * s["n"] * (s["n"] + 1) // 2, None),
    # Irregular rows against one flat operation over as many elements (issue
    # 16: at most 1.3x its time); no peers (IRREGULAR_SIZES' rows).
    ("segred_irregular", "segred_irregular", None, IRREGULAR_SIZES, IRREGULAR_SMALL, gen_segred, ref_segred,
     lambda s: 4 * int(irregular_lengths(s).sum()), None),
    ("segred_flat", "sum", None, IRREGULAR_SIZES, IRREGULAR_SMALL, flat_gen(gen_segred), ref_sum,
     lambda s: 4 * int(irregular_lengths(s).sum()), None),
    ("segscan_irregular", "segscan_irregular", None, IRREGULAR_SIZES, IRREGULAR_SMALL, gen_segscan, ref_segscan,
     lambda s: 8 * int(irregular_lengths(s).sum()), None),
    ("segscan_flat", "scan", None, IRREGULAR_SIZES, IRREGULAR_SMALL, flat_gen(gen_segscan), ref_scan,
     lambda s: 8 * int(irregular_lengths(s).sum()), None),
]

# The CPU sizes of ../shared/bench/cpu (peers_cpu.c and peers_cpu.py), with
# their rows' names, for CPU backends (--cpu): the GPU sizes' arrays are
# too large or too slow for a CPU.
CPU_SIZES = {
    "sum": ("sum_f32_2^27", {"n": 1 << 27}),
    "dot": ("dot_f32_2^26", {"n": 1 << 26}),
    "saxpy": ("saxpy_f32_2^26", {"n": 1 << 26}),
    "scan": ("scan_i32_2^26", {"n": 1 << 26}),
    "hist256": ("hist_256_2^26", {"bins": 256, "n": 1 << 26}),
    "hist1m": ("hist_1048576_2^26", {"bins": 1 << 20, "n": 1 << 26}),
    "gather": ("gather_f32_2^25", {"n": 1 << 25}),
    "transpose": ("transpose_f32_8192", {"rows": 8192, "cols": 8192}),
    "matmul": ("matmul_f32_2048", {"n": 2048, "k": 2048, "m": 2048}),
    "mandelbrot": ("mandelbrot_2048_256", {"n": 2048, "limit": 256}),
    "nbody": ("nbody_acc_16384", {"n": 16384}),
    "jacobi": ("jacobi5_4096_x10", {"rows": 4096, "cols": 4096, "steps": 10}),
    "kmeans": ("kmeans_step_2^20x16x32", {"n": 1 << 20, "d": 16, "k": 32}),
    "trmv": ("trmv_f32_8192", {"n": 8192}),
    "spmv": ("spmv_csr_2^20x16", {"rows": 1 << 20, "max_row": 32}),
    "trmv_packed": ("trmv_f32_8192", {"n": 8192}),
    "segred_irregular": (None, IRREGULAR_CPU),
    "segred_flat": (None, IRREGULAR_CPU),
    "segscan_irregular": (None, IRREGULAR_CPU),
    "segscan_flat": (None, IRREGULAR_CPU),
}

# How many values each program returns (1 unless listed).
OUTPUT_COUNTS = {"nbody": 3}

# spmv's bytes depend on the generated nnz: values + cols, and offsets, x, y per row.
SPMV_BYTES = lambda nnz, rows: nnz * 8 + rows * 12


# ---------------------------------------------------------------------------
# Running one workload.

def log(msg):
    print(msg, file=sys.stderr, flush=True)


def tail(text, limit=2000):
    text = text.decode(errors="replace") if isinstance(text, bytes) else (text or "")
    return text if len(text) <= limit else "..." + text[-limit:]


def compile_program(args, prog, work, cache):
    """Compiles bench/PROG.fut once per run; returns (exe, error)."""
    if prog in cache:
        return cache[prog]
    exe = os.path.join(work, prog)
    cmd = [args.futhorc, args.backend, *args.compile_option,
           os.path.join(BENCH_DIR, prog + ".fut"), "-o", exe]
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=COMPILE_TIMEOUT_S)
        err = None if r.returncode == 0 and os.path.exists(exe) else \
            f"compile failed (exit {r.returncode}): {tail(r.stderr + r.stdout)}"
    except (OSError, subprocess.TimeoutExpired) as e:
        err = f"compile failed: {e}"
    cache[prog] = (exe, err)
    return cache[prog]


def run_program(args, exe, inputs, work, name):
    """Runs exe on inputs; returns (outputs, times_us)."""
    inp, outp, times = (os.path.join(work, name + ext) for ext in (".in", ".out", ".times"))
    with open(inp, "wb") as fh:
        for v in inputs:
            write_value(fh, v)
    try:
        with open(inp, "rb") as fin, open(outp, "wb") as fout:
            r = subprocess.run([exe, *args.exe_option, "-r", str(args.runs), "-b", "-t", times], stdin=fin,
                               stdout=fout, stderr=subprocess.PIPE, timeout=args.timeout)
        if r.returncode != 0:
            raise RuntimeError(f"run failed (exit {r.returncode}): {tail(r.stderr)}")
        with open(times) as fh:
            ts = [float(line) for line in fh if line.strip()]
        if len(ts) != args.runs:
            raise RuntimeError(f"expected {args.runs} run times, got {len(ts)}")
        return read_values(outp), ts
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"run timed out after {args.timeout} s")
    finally:
        if not args.keep:
            for f in (inp, outp, times):
                if os.path.exists(f):
                    os.remove(f)


def bench_one(args, wl, work, cache):
    """One workload end to end; always returns a result record."""
    name, prog, peer, full, small, gen, check, nbytes, nflops = wl
    sizes = small if args.small else full
    if args.cpu:
        peer, sizes = CPU_SIZES[name]
    rec = {"workload": name, "program": f"bench/{prog}.fut", "peer_bench": peer,
           "sizes": sizes, "status": "FAIL"}
    t0 = time.time()
    try:
        exe, err = compile_program(args, prog, work, cache)
        if err:
            raise RuntimeError(err)
        inputs = gen(np.random.default_rng([SEED, WORKLOADS.index(wl)]), sizes)
        outputs, ts = run_program(args, exe, inputs, work, name)
        if len(outputs) != OUTPUT_COUNTS.get(name, 1):
            raise RuntimeError(f"{len(outputs)} results, expected {OUTPUT_COUNTS.get(name, 1)}")
        rec["times_us"] = ts
        rec["ms"] = float(np.median(ts)) / 1e3
        ok, msg = check(inputs, outputs)
        rec["status"], rec["check"] = ("OK" if ok else "FAIL"), msg
        if name == "spmv":
            rec["bytes"] = SPMV_BYTES(len(inputs[1]), len(inputs[0]) - 1)
        elif nbytes:
            rec["bytes"] = nbytes(sizes)
        if nflops:
            rec["flops"] = nflops(sizes)
    except Exception as e:     # a failing workload is a FAIL row, never the end of the run
        rec["error"] = str(e) if isinstance(e, RuntimeError) else f"{type(e).__name__}: {e}"
    rec["wall_s"] = round(time.time() - t0, 1)
    log(f"{name}: {rec['status']} {rec.get('ms', float('nan')):.4f} ms "
        f"({rec.get('check') or rec.get('error', '')}) [{rec['wall_s']} s]")
    return rec


# ---------------------------------------------------------------------------
# Peers.

def load_peers(args):
    """The peer rows: from a JSON file, or by running peers.py (--peers run:PATH)."""
    if not args.peers:
        return None, None
    try:
        if not args.peers.startswith("run:"):
            with open(args.peers) as fh:
                return json.load(fh), None
        script = args.peers[4:]
        r = run_peer_script(args, script, "peers")
        if r.returncode != 0:
            return None, f"peers.py failed (exit {r.returncode}): {tail(r.stderr, 500)}"
        with open(os.path.join(args.out, "peers.json")) as fh:
            peers = json.load(fh)
        peers["rows"] += run_trmv_cublas(args, os.path.dirname(script))
        peers["rows"] += run_peers_cuda(args, os.path.dirname(script))
        return peers, None
    except Exception as e:
        return None, f"no peer numbers: {type(e).__name__}: {e}"


def run_peer_script(args, script, stem):
    """Runs a peer script with OUT=args.out (it writes OUT/stem.json) and
    keeps its output in OUT/stem.log; returns the finished process."""
    env = dict(os.environ, OUT=args.out)
    r = subprocess.run([args.peers_python, script], env=env, capture_output=True, timeout=PEERS_TIMEOUT_S)
    with open(os.path.join(args.out, stem + ".log"), "wb") as fh:
        fh.write(r.stdout + r.stderr)
    return r


def run_trmv_cublas(args, folder):
    """cuBLAS strmv's row, from trmv_cublas.py beside peers.py, if it runs."""
    script = os.path.join(folder, "trmv_cublas.py")
    if not os.path.exists(script):
        return []
    try:
        r = subprocess.run([args.peers_python, script], capture_output=True, timeout=300)
        rows = [json.loads(l) for l in r.stdout.decode().splitlines() if l.startswith("{")]
        return [{k: v for k, v in row.items() if k in ("bench", "peer", "ms", "GB/s")} for row in rows]
    except Exception as e:
        log(f"trmv_cublas.py: {e}")
        return []


def run_peers_cuda(args, folder):
    """The hand-written CUDA rows, from peers_cuda.py beside peers.py, if it
    runs; each is marked "hand": true."""
    script = os.path.join(folder, "peers_cuda.py")
    if not os.path.exists(script):
        return []
    try:
        r = run_peer_script(args, script, "peers_cuda")
        with open(os.path.join(args.out, "peers_cuda.json")) as fh:
            rows = json.load(fh)["rows"]
        if r.returncode != 0:
            log(f"peers_cuda.py: exit {r.returncode} (its failed rows are left out)")
        return [dict(row, hand=True) for row in rows]
    except Exception as e:
        log(f"peers_cuda.py: {type(e).__name__}: {e}")
        return []


def best_peer(peers, bench, hand=None):
    """The fastest peer row of bench: of all peers, or only the hand-written
    CUDA ones (hand=True) or only the libraries (hand=False)."""
    rows = [r for r in (peers or {}).get("rows", [])
            if r.get("bench") == bench and r.get("ms") and (hand is None or bool(r.get("hand")) == hand)]
    return min(rows, key=lambda r: r["ms"]) if rows else None


# ---------------------------------------------------------------------------
# Report.

def annotate(results, peers):
    """Adds peer, ratio and rates to each record; returns (copy GB/s, geomean)."""
    copy = best_peer(peers, "copy_1GiB")
    copy_gbs = copy.get("GB/s") if copy else None
    ratios = []
    for rec in results:
        bp = best_peer(peers, rec["peer_bench"])
        if bp:
            rec["peer"], rec["peer_ms"] = bp["peer"], bp["ms"]
        lib, hand = best_peer(peers, rec["peer_bench"], False), best_peer(peers, rec["peer_bench"], True)
        if lib:
            rec["lib_peer"], rec["lib_ms"] = lib["peer"], lib["ms"]
        if hand:
            rec["hand_ms"] = hand["ms"]
        if rec["status"] == "OK" and rec.get("ms", 0) > 0:   # 0: below the timer's resolution
            if bp:
                rec["ratio"] = rec["ms"] / bp["ms"]
                ratios.append(rec["ratio"])
            if rec.get("bytes"):
                rec["GB/s"] = rec["bytes"] / rec["ms"] / 1e6
                if copy_gbs:
                    rec["pct_copy"] = 100 * rec["GB/s"] / copy_gbs
            if rec.get("flops"):
                rec["GFLOP/s"] = rec["flops"] / rec["ms"] / 1e6
    return copy_gbs, geomean(ratios), len(ratios)


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def fmt(x, spec, none="-"):
    return none if x is None else format(x, spec)


def render(args, results, peers, peer_err, copy_gbs, geo, nratios):
    """RESULTS.md as a string."""
    lines = ["# futhorc GPU benchmark results", "",
             f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
             f"- backend: `{args.backend}`; compiler: `{args.futhorc}`; sizes: "
             f"{'small (local check: ratios to the peers mean nothing)' if args.small else 'CPU (as peers_cpu)' if args.cpu else 'full (as peers.py)'}",
             f"- futhorc time: median of {args.runs} runs after one warm-up (`-t`, which excludes "
             f"host-device transfers on GPU backends)",
             f"- peers: {peers.get('device', '?') if peers else 'none'}"
             + (f" (`{args.peers}`)" if args.peers else "") + (f"; {peer_err}" if peer_err else ""),
             f"- copy bandwidth ceiling (copy_1GiB): {fmt(copy_gbs, '.1f')} GB/s", "",
             "| workload | futhorc ms | best library peer | its ms | hand-written CUDA ms | best of all | futhorc/best | GB/s | % copy | GFLOP/s | check |",
             "|---|---:|---|---:|---:|---|---:|---:|---:|---:|---|"]
    for r in results:
        check = r["status"] + (f" ({r['error'][:120]})" if r.get("error") else "")
        if r["status"] == "FAIL" and r.get("check"):
            check += f" ({r['check']})"
        cell = " ".join(check.split()).replace("|", "/")   # one table row, whatever the message
        lines.append(f"| {r['workload']} | {fmt(r.get('ms'), '.4f')} | {r.get('lib_peer', '-')} | "
                     f"{fmt(r.get('lib_ms'), '.4f')} | {fmt(r.get('hand_ms'), '.4f')} | {r.get('peer', '-')} | "
                     f"{fmt(r.get('ratio'), '.2f')} | "
                     f"{fmt(r.get('GB/s'), '.1f')} | {fmt(r.get('pct_copy'), '.0f')} | "
                     f"{fmt(r.get('GFLOP/s'), '.0f')} | {cell} |")
    ok = sum(r["status"] == "OK" for r in results)
    lines += ["", f"{ok} of {len(results)} workloads OK.",
              f"Geometric mean of futhorc/best over the {nratios} OK workloads with a peer: "
              f"{fmt(geo, '.3f')} (lower is better; below 1 beats the best peer).",
              f"Against the library peers only: {fmt(geomean(r['ms'] / r['lib_ms'] for r in results if r['status'] == 'OK' and r.get('ms', 0) > 0 and r.get('lib_ms')), '.3f')}.",
              ""]
    return "\n".join(lines)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--futhorc", required=True, help="the futhorc compiler")
    ap.add_argument("--backend", required=True, help="futhorc backend: opencl or c")
    ap.add_argument("--small", action="store_true", help="tiny sizes, for a local check")
    ap.add_argument("--cpu", action="store_true",
                    help="the CPU sizes of ../shared/bench/cpu (for the c backend; peers: its peers_cpu.json)")
    ap.add_argument("--out", default="bench-results", help="where RESULTS.md and results.json go")
    ap.add_argument("--work", help="executables and data (default: a temporary folder, removed)")
    ap.add_argument("--peers", help="peers JSON file, or run:PATH to run peers.py")
    ap.add_argument("--peers-python", default=sys.executable, help="python for peers.py")
    ap.add_argument("--only", help="comma-separated workloads to run")
    ap.add_argument("--skip", help="comma-separated workloads to leave out")
    ap.add_argument("--runs", type=int, default=RUNS, help="measured runs per workload")
    ap.add_argument("--timeout", type=int, default=RUN_TIMEOUT_S, help="seconds per executable")
    ap.add_argument("--compile-option", action="append", default=[], metavar="OPT",
                    help="extra futhorc option before the program (repeatable)")
    ap.add_argument("--exe-option", action="append", default=[], metavar="OPT",
                    help="extra option for the generated executables (repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep input and output data files")
    args = ap.parse_args()
    names = [w[0] for w in WORKLOADS]
    for opt in (args.only, args.skip):
        for n in (opt.split(",") if opt else []):
            if n not in names:
                ap.error(f"unknown workload {n!r}; known: {', '.join(names)}")
    args.futhorc = os.path.abspath(args.futhorc) if os.sep in args.futhorc else args.futhorc
    args.out = os.path.abspath(args.out)
    return args


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="futhorc-bench-")
    os.makedirs(work, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    skip = set(args.skip.split(",")) if args.skip else set()
    chosen = [w for w in WORKLOADS if (only is None or w[0] in only) and w[0] not in skip]
    try:
        cache = {}
        results = [bench_one(args, wl, work, cache) for wl in chosen]
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    peers, peer_err = load_peers(args)
    copy_gbs, geo, nratios = annotate(results, peers)
    report = render(args, results, peers, peer_err, copy_gbs, geo, nratios)
    with open(os.path.join(args.out, "RESULTS.md"), "w") as fh:
        fh.write(report)
    with open(os.path.join(args.out, "results.json"), "w") as fh:
        json.dump({"backend": args.backend, "small": args.small, "cpu": args.cpu, "runs": args.runs,
                   "futhorc": args.futhorc, "peers_device": (peers or {}).get("device"),
                   "peers_error": peer_err, "copy_GB/s": copy_gbs, "geomean_ratio": geo,
                   "results": results}, fh, indent=1)
    print(report)
    return 0 if all(r["status"] == "OK" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
