#!/usr/bin/env python3
"""Short-circuiting benchmarks: each program compiled with and without
futhorc's shortcircuit pass (--skip-pass=shortcircuit), run on the same
inputs in one job, and compared: median time, the copies and blocks the
generated code has (futhorc structure), the peak device memory (-P, OpenCL
only) and the results (the two builds must agree).

Programs: bench/sc/hotspot.fut and bench/sc/lbm.fut, and, with
--futhark-benchmarks DIR (a checkout of diku-dk/futhark-benchmarks, kept
outside the repository), its finpar/LocVolCalib.fut, rodinia/lud/lud.fut and
parboil/lbm/lbm.fut on generated inputs of their sizes; with
--futhark-tests DIR (the tests/ folder of diku-dk/futhark, also kept
outside), its slice-lmads/lud.fut and nw.fut, the thesis's LUD and NW
written with flat slices (intrinsics.flat_index_Nd, flat_update_Nd).

    python3 bench/sc_run.py --futhorc bin/futhorc --backend opencl --out DIR
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile

import numpy as np

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)
from run import read_values, write_value  # noqa: E402 (the data format lives there)

SEED = 20261126
RUN_TIMEOUT_S = 300
# Workloads slow enough that fewer runs must do: parboil's LBM without
# short-circuiting runs on the host; LocVolCalib's large dataset takes
# tens of seconds a run on a GPU.
RUNS_CAP = {"parboil_lbm": 1, "LocVolCalib": 1}


def gen_hotspot(rng, small):
    n, steps = (64, 5) if small else (4096, 100)
    temp = rng.uniform(300, 340, (n, n)).astype(np.float32)
    power = rng.uniform(0, 0.5, (n, n)).astype(np.float32)
    return [np.int32(steps), temp, power]


def gen_lbm(rng, small):
    n, steps = (32, 3) if small else (1024, 10)
    return [np.int64(steps), rng.uniform(0.05, 0.15, (n, n, 9)).astype(np.float32)]


def gen_lud(rng, small):
    n = 256 if small else 2048
    a = rng.uniform(0, 1, (n, n)).astype(np.float32)
    return [a + np.float32(n) * np.eye(n, dtype=np.float32)]


def gen_nn(rng, small):
    n = 4096 if small else 1 << 22
    return [np.int32(10 if small else 100), np.float32(30), np.float32(90),
            rng.uniform(0, 90, n).astype(np.float32), rng.uniform(0, 180, n).astype(np.float32)]


def gen_lud_flat(rng, small):
    return [np.int64(32 if not small else 16)] + [gen_lud(rng, small)[0].reshape(-1)]


def gen_nw_flat(rng, small):
    n = (16 * 8 if small else 32 * 48) + 1  # (n - 1) a multiple of the block size
    return [np.int64(16 if small else 32), np.int32(10), rng.integers(-10, 10, n * n).astype(np.int32),
            rng.integers(-10, 10, n * n).astype(np.int32)]


def gen_parboil_lbm(rng, small):
    # 20 entries per padded cell of a 120 x 120 x 154 lattice: every
    # distribution 0.05 and every flag 0.05 (neither obstacle nor
    # accelerated: fluid).
    return [np.full(20 * 120 * 120 * 154, 0.05, dtype=np.float32)]


# name, program (relative to bench/, "fb": the futhark-benchmarks checkout,
# "ft": the futhark tests folder), where, inputs (a generator, or a data
# file of the checkout and its small variant), entry point
WORKLOADS = [
    ("hotspot", "sc/hotspot.fut", None, gen_hotspot, "main"),
    ("lbm_rows", "sc/lbm.fut", None, gen_lbm, "main"),
    ("LocVolCalib", "finpar/LocVolCalib.fut", "fb", ("finpar/LocVolCalib-data/large.in",
                                                     "finpar/LocVolCalib-data/small.in"), "main"),
    ("lud", "rodinia/lud/lud.fut", "fb", gen_lud, "main"),
    ("parboil_lbm", "parboil/lbm/lbm.fut", "fb", gen_parboil_lbm, "main"),
    ("nn", "rodinia/nn/nn.fut", "fb", gen_nn, "main"),
    ("OptionPricing", "finpar/OptionPricing.fut", "fb", ("finpar/OptionPricing-data/large.in",
                                                         "finpar/OptionPricing-data/small.in"), "main"),
    ("lud_flat", "slice-lmads/lud.fut", "ft", gen_lud_flat, "lud"),
    ("nw_flat", "slice-lmads/nw.fut", "ft", gen_nw_flat, "nw_flat"),
]


def root_of(args, where):
    return {"fb": args.futhark_benchmarks, "ft": args.futhark_tests}.get(where, BENCH_DIR)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def structure(args, prog, skip):
    stage = "gpu" if args.backend == "opencl" else "mem"
    cmd = [args.futhorc, "structure", "--stage", stage, prog] + (["--skip-pass=shortcircuit"] if skip else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    counts = dict(line.split() for line in r.stdout.splitlines() if len(line.split()) == 2)
    return {k: int(counts.get(k, 0)) for k in ("Copy", "Alloc")}


def run_exe(exe, inp, args, extra):
    with open(inp, "rb") as fin:
        return subprocess.run([exe, *extra], stdin=fin, capture_output=True, timeout=RUN_TIMEOUT_S)


def measure(args, exe, inp, work, tag, runs, entry):
    times = os.path.join(work, tag + ".times")
    r = run_exe(exe, inp, args, ["-e", entry, "-r", str(runs), "-b", "-t", times])
    if r.returncode != 0:
        raise RuntimeError(f"{tag}: exit {r.returncode}: {r.stderr.decode(errors='replace')[-1500:]}")
    out = os.path.join(work, tag + ".out")
    with open(out, "wb") as fh:
        fh.write(r.stdout)
    with open(times) as fh:
        ts = [float(x) for x in fh if x.strip()]
    peak = None
    if args.backend == "opencl":
        p = run_exe(exe, inp, args, ["-e", entry, "-P", "-n"])
        m = re.search(rb"peak device memory: (\d+) bytes", p.stderr)
        peak = int(m.group(1)) if m else None
    return statistics.median(ts) / 1000.0, peak, read_values(out)


def agree(a, b):
    """Both builds' results: bit-identical, or (floats) within 1e-5 relative."""
    if len(a) != len(b):
        return False, "different number of results"
    worst = 0.0
    for x, y in zip(a, b):
        if x.shape != y.shape:
            return False, f"shapes {x.shape} and {y.shape}"
        if np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            continue
        if x.dtype.kind != "f":
            return False, "integer results differ"
        scale = max(float(np.nanmax(np.abs(x))), 1e-30)
        worst = max(worst, float(np.nanmax(np.abs(x.astype(np.float64) - y))) / scale)
    return worst <= 1e-5, "identical" if worst == 0 else f"max relative difference {worst:.2e}"


def program_path(args, name, prog, where):
    path = os.path.join(root_of(args, where), prog)
    if name != "parboil_lbm":
        return path
    # Its main hard-codes 100 steps: a copy beside it runs --parboil-steps.
    text = open(path).read().replace("lbm input 100", f"lbm input {args.parboil_steps}")
    path = os.path.join(os.path.dirname(path), f"lbm_{args.parboil_steps}.fut")
    with open(path, "w") as fh:
        fh.write(text)
    return path


def bench(args, wl, work):
    name, prog, where, inputs, entry = wl
    root = root_of(args, where)
    path = program_path(args, name, prog, where)
    row = {"name": name, "program": prog}
    inp = os.path.join(work, name + ".in")
    if isinstance(inputs, tuple):
        shutil.copy(os.path.join(root, inputs[1] if args.small else inputs[0]), inp)
    else:
        with open(inp, "wb") as fh:
            for v in inputs(np.random.default_rng(SEED), args.small):
                write_value(fh, v)
    results = {}
    for skip in (True, False):
        tag = name + (".nosc" if skip else ".sc")
        exe = os.path.join(work, tag)
        if args.prebuilt:
            shutil.copy(os.path.join(args.prebuilt, tag), exe)
        else:
            r = subprocess.run([args.futhorc, args.backend, *args.compile_option, path, "-o", exe] +
                               (["--skip-pass=shortcircuit"] if skip else []), capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"compile failed: {r.stderr[-1500:]}")
        ms, peak, out = measure(args, exe, inp, work, tag, min(args.runs, RUNS_CAP.get(name, args.runs)), entry)
        key = "nosc" if skip else "sc"
        row[key] = {"ms": ms, "peak_bytes": peak, **structure(args, path, skip)}
        results[key] = out
        log(f"{name} {key}: {ms:.3f} ms, peak {peak}, {row[key]['Copy']} copies, {row[key]['Alloc']} allocs")
    ok, why = agree(results["nosc"], results["sc"])
    row["results"] = why
    row["ok"] = ok
    row["speedup"] = row["nosc"]["ms"] / row["sc"]["ms"]
    return row


def selected(args):
    for wl in WORKLOADS:
        if wl[2] and not root_of(args, wl[2]) or args.only and wl[0] not in args.only.split(","):
            continue
        if args.small and wl[0] == "parboil_lbm":
            continue  # one fixed, large size
        yield wl


def build_all(args):
    os.makedirs(args.build, exist_ok=True)
    for name, prog, where, _, _ in selected(args):
        path = program_path(args, name, prog, where)
        for skip in (True, False):
            exe = os.path.join(args.build, name + (".nosc" if skip else ".sc"))
            subprocess.run([args.futhorc, args.backend, *args.compile_option, path, "-o", exe] +
                           (["--skip-pass=shortcircuit"] if skip else []), check=True)
    return 0


def render(rows, args):
    mb = lambda b: "-" if b is None else f"{b / 2**20:.1f}"
    out = [f"# Short-circuiting: with and without (backend {args.backend}, median of {args.runs} runs"
           f" after a warm-up; {', '.join(f'{k}: {v}' for k, v in RUNS_CAP.items())})", "",
           "| workload | without ms | with ms | speedup | copies | blocks | peak MiB without | peak MiB with | results |",
           "|---|---:|---:|---:|---|---|---:|---:|---|"]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['name']} | FAIL: {r['error'][:200]} | | | | | | | |")
            continue
        a, b = r["nosc"], r["sc"]
        out.append(f"| {r['name']} | {a['ms']:.3f} | {b['ms']:.3f} | {r['speedup']:.2f} | {a['Copy']} -> {b['Copy']} | "
                   f"{a['Alloc']} -> {b['Alloc']} | {mb(a['peak_bytes'])} | {mb(b['peak_bytes'])} | "
                   f"{'OK' if r['ok'] else 'FAIL'}: {r['results']} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--futhorc", default="bin/futhorc")
    ap.add_argument("--backend", default="opencl", choices=["c", "multicore", "opencl"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--small", action="store_true", help="small inputs (a quick check; timings mean nothing)")
    ap.add_argument("--futhark-benchmarks", help="a futhark-benchmarks checkout: also its LocVolCalib, LUD and LBM")
    ap.add_argument("--futhark-tests", help="the tests/ folder of a futhark checkout: also its slice-lmads LUD and NW")
    ap.add_argument("--only", help="comma-separated workload names")
    ap.add_argument("--parboil-steps", type=int, default=10,
                    help="steps of parboil's LBM (its main runs 100; a copy beside it runs this many)")
    ap.add_argument("--compile-option", action="append", default=[], help="passed to futhorc when compiling")
    ap.add_argument("--build", metavar="DIR", help="only compile every workload's two executables into DIR")
    ap.add_argument("--prebuilt", metavar="DIR", help="take the executables from DIR (made by --build elsewhere: "
                    "the device machine has no LLVM for the multicore backend)")
    args = ap.parse_args()
    args.futhorc = os.path.abspath(args.futhorc)
    if args.futhark_benchmarks:
        args.futhark_benchmarks = os.path.abspath(args.futhark_benchmarks)
    if args.futhark_tests:
        args.futhark_tests = os.path.abspath(args.futhark_tests)
    os.makedirs(args.out, exist_ok=True)
    if args.build:
        return build_all(args)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for wl in selected(args):
            try:
                rows.append(bench(args, wl, work))
            except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
                rows.append({"name": wl[0], "error": str(e), "ok": False})
                log(f"{wl[0]}: {e}")
    text = render(rows, args)
    print(text)
    with open(os.path.join(args.out, "SC_RESULTS.md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(args.out, "sc_results.json"), "w") as fh:
        json.dump(rows, fh, indent=1)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
