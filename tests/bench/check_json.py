#!/usr/bin/env python3
"""Checks a `futhorc bench --json` file against the shape of Futhark's bench
schema (src/Futhark/Bench.hs): an object of programs ("prog.fut" or
"prog.fut:entry"), each {"datasets": {...}}, each dataset either an error
string or {"runtimes": [int...], "bytes": {str: int}} with optional
"stderr" (string) and "profiling" (object); nothing else. Then checks the
expectations given as a JSON argument:

  check_json.py FILE EXPECT

EXPECT is {"runs": R, "programs": {key: {name: "ok" | "error" | "error:TEXT"}}}:
exactly these programs and datasets; "ok" datasets have exactly R
runtimes (the runner's rule for -r R), all non-negative. Prints one line
per problem; exits 1 if any."""
import json
import sys

problems = []


def bad(msg):
    problems.append(msg)


def check_dataset(where, d):
    if isinstance(d, str):
        return
    if not isinstance(d, dict):
        return bad(f"{where}: neither an object nor an error string")
    extra = set(d) - {"runtimes", "bytes", "stderr", "profiling"}
    if extra:
        bad(f"{where}: unexpected fields {sorted(extra)}")
    rts = d.get("runtimes")
    if not isinstance(rts, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in rts):
        bad(f"{where}: 'runtimes' is not an array of integers")
    by = d.get("bytes")
    if not isinstance(by, dict) or not all(isinstance(v, int) for v in by.values()):
        bad(f"{where}: 'bytes' is not an object of integers")
    if "stderr" in d and not isinstance(d["stderr"], str):
        bad(f"{where}: 'stderr' is not a string")
    if "profiling" in d and not isinstance(d["profiling"], dict):
        bad(f"{where}: 'profiling' is not an object")


def check_schema(top):
    if not isinstance(top, dict):
        return bad("top level is not an object")
    for prog, v in top.items():
        if not isinstance(v, dict) or not isinstance(v.get("datasets"), dict):
            bad(f"{prog}: no 'datasets' object")
            continue
        if set(v) - {"datasets", "metadata"}:
            bad(f"{prog}: unexpected fields {sorted(set(v) - {'datasets'})}")
        for name, d in v["datasets"].items():
            check_dataset(f"{prog}: {name}", d)


def check_runs(where, rts, runs):
    if len(rts) != runs:
        bad(f"{where}: {len(rts)} runtimes, not -r {runs}")
    if any(x < 0 for x in rts):
        bad(f"{where}: a negative runtime")


def check_expect(top, expect):
    runs = expect["runs"]
    want = expect["programs"]
    if set(top) != set(want):
        bad(f"programs {sorted(top)}, expected {sorted(want)}")
    for prog, names in want.items():
        got = top.get(prog, {}).get("datasets", {})
        if set(got) != set(names):
            bad(f"{prog}: datasets {sorted(got)}, expected {sorted(names)}")
        for name, what in names.items():
            d = got.get(name)
            if d is None:
                continue
            where = f"{prog}: {name}"
            if what == "ok":
                if isinstance(d, dict):
                    check_runs(where, d["runtimes"], runs)
                else:
                    bad(f"{where}: failed: {d}")
            elif not isinstance(d, str):
                bad(f"{where}: should have failed")
            elif what.startswith("error:") and what[6:] not in d:
                bad(f"{where}: error {d!r} lacks {what[6:]!r}")


def main():
    try:
        with open(sys.argv[1]) as f:
            top = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{sys.argv[1]}: {e}")
        return 1
    check_schema(top)
    if len(sys.argv) > 2 and not problems:
        check_expect(top, json.loads(sys.argv[2]))
    for p in problems:
        print(f"{sys.argv[1]}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
