"""Drives futhorc server-mode executables through the released Python client
`futhark-server` (PyPI), as applications and Futhark's own tools do.

    python client.py BUILD_DIR

BUILD_DIR holds the compiled test programs (arith, consume). Prints one line
per check, "PASS name" or "FAIL name: why"; tests/server/run.sh counts them.
"""

import json
import os
import sys
import tempfile

import numpy as np
from futhark_server import Failure, Server

BUILD = sys.argv[1]


def check(name, fn):
    """Runs one check: fn returns normally (pass) or raises (fail)."""
    try:
        fn()
        print("PASS " + name)
    except Exception as e:  # noqa: BLE001 - every failure is reported
        print("FAIL %s: %s: %s" % (name, type(e).__name__, e))


def expect_failure(fn, text):
    """fn must raise Failure with text in its message."""
    try:
        fn()
    except Failure as f:
        assert text in str(f), "message %r lacks %r" % (str(f), text)
        return
    raise AssertionError("no failure (expected one mentioning %r)" % text)


def eq(got, want):
    assert got == want, "got %r, want %r" % (got, want)


def arith_checks(s):
    def scalars():
        s.put_value("x", np.int32(2))
        s.put_value("y", np.int32(40))
        out = s.cmd_call("add", "z", "x", "y")
        assert out[0].startswith("runtime: "), out
        eq(s.get_value("z"), 42)
        eq(s.get_value("z").dtype, np.int32)

    def arrays():
        xs = np.array([1.5, -2.0, 3.25], dtype=np.float64)
        s.put_value("k", np.float64(2.0))
        s.put_value("xs", xs)
        s.cmd_call("scale", "ys", "k", "xs")
        assert np.array_equal(s.get_value("ys"), xs * 2), s.get_value("ys")

    def matrix():
        m = np.arange(6, dtype=np.float32).reshape(2, 3)
        s.put_value("m", m)
        s.cmd_call("transpose2", "mt", "m")
        got = s.get_value("mt")
        eq(got.shape, (3, 2))
        assert np.array_equal(got, m.T)

    def bools():
        s.put_value("bs", np.array([True, False, False]))
        s.cmd_call("negate_all", "nb", "bs")
        assert np.array_equal(s.get_value("nb"), np.array([False, True, True]))

    def several_outputs():
        s.put_value("is", np.array([5, -3, 9, 0], dtype=np.int64))
        s.cmd_call("minmax", "lo", "hi", "is")
        eq((s.get_value("lo"), s.get_value("hi")), (-3, 9))

    def one_tuple_output():
        s.cmd_call("minmax", "pair", "is")
        eq(s.get_value("pair"), (-3, 9))
        eq(s.cmd("type", "pair"), ["(i64, i64)"])
        eq(s.cmd_fields('"(i64, i64)"'), ["0 i64", "1 i64"])
        s.cmd_project("p1", "pair", "1")
        eq(s.get_value("p1"), 9)

    def interface():
        eq(s.cmd_entry_points(), ["add", "scale", "minmax", "transpose2", "checked_div", "negate_all", "ranges",
                                   "row_sums"])
        eq(s.cmd_inputs("scale"), ["f64", "[]f64"])
        eq(s.cmd_output("add"), ["*i32"])
        eq(s.cmd_output("minmax"), ["*(i64, i64)"])
        eq(s.cmd("outputs", "minmax"), ["*i64", "*i64"])
        types = s.cmd_types()
        for t in ["i32", "[]f64", "[][]f32", "[]bool", "(i64, i64)"]:
            assert t in types, "%s missing from %r" % (t, types)

    def store_bytes():
        s.put_value("three", np.array([1, 2, 3], dtype=np.int32))
        eq(s.get_value_bytes("three"),
           b"b\x02\x01 i32\x03\x00\x00\x00\x00\x00\x00\x00"
           b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00")

    def restore_file(data, *pairs):
        """restore of several variables from one file (put_value_bytes of
        futhark-server 1.0.1 passes its pairs on wrongly and so takes exactly
        one pair, given as a tuple)."""
        with tempfile.NamedTemporaryFile() as f:
            f.write(data)
            f.flush()
            s.cmd_restore(f.name, *pairs)

    def text_restore():
        restore_file(b"[[1, 2], [3, 4]] -- a comment\n 7", ("tm", "[][]f32"), ("seven", "i32"))
        assert np.array_equal(s.get_value("tm"), np.array([[1, 2], [3, 4]], dtype=np.float32))
        eq(s.get_value("seven"), 7)

    def unknown_entry():
        expect_failure(lambda: s.cmd_call("nope", "o", "x"), "Unknown entry point: nope")

    def failing_entry():
        s.put_value("zero", np.int32(0))
        expect_failure(lambda: s.cmd_call("checked_div", "q", "x", "zero"), "Assertion is false")
        expect_failure(lambda: s.get_value("q"), "Unknown variable: q")
        s.cmd_call("checked_div", "q", "z", "x")  # the server goes on
        eq(s.get_value("q"), 21)

    def wrong_calls():
        expect_failure(lambda: s.cmd_call("add", "w", "x", "k"), "Wrong input type")
        expect_failure(lambda: s.cmd_call("add", "w", "x"), "takes 2 inputs")
        expect_failure(lambda: s.cmd_call("add", "z", "x", "y"), "already exists: z")
        expect_failure(lambda: s.cmd_call("add", "w", "x", "undefined"), "Unknown variable: undefined")

    def malformed_restore():
        expect_failure(lambda: s.put_value_bytes(b"[1, 2", ("bad", "[]i32")), "Failed to restore variable bad")
        expect_failure(lambda: s.put_value_bytes(b"[1.5]", ("bad", "[]i32")), "bad")
        expect_failure(lambda: s.put_value_bytes(b"b\x02\x01 i64\x01\x00\x00\x00\x00\x00\x00\x00" + b"\x00" * 8,
                                                 ("bad", "[]i32")), "bad")
        expect_failure(lambda: s.put_value_bytes(b"b\x02\x01 i32\x09\x00\x00\x00\x00\x00\x00\x00\x01",
                                                 ("bad", "[]i32")), "bad")
        expect_failure(lambda: s.put_value_bytes(b"1 2", ("bad", "i32")), "Expected EOF")
        expect_failure(lambda: restore_file(b"1", ("bad", "i32"), ("bad2", "i32")), "bad2")
        expect_failure(lambda: s.put_value_bytes(b"1", ("bad", "i33")), "Unknown type")
        expect_failure(lambda: s.put_value_bytes(b"1", ("x", "i32")), "already exists: x")
        expect_failure(lambda: s.cmd_restore("/nonexistent/file", ("bad", "i32")), "Failed to open")
        expect_failure(lambda: s.cmd_free("bad"), "Unknown variable: bad")  # nothing was left behind

    def variables():
        s.cmd_rename("z", "z2")
        eq(s.get_value("z2"), 42)
        expect_failure(lambda: s.get_value("z"), "Unknown variable: z")
        expect_failure(lambda: s.cmd_rename("z2", "x"), "already exists: x")
        s.cmd_free("z2", "lo")
        expect_failure(lambda: s.cmd_free("z2"), "Unknown variable: z2")

    def context_commands():
        s.cmd_pause_profiling()
        s.cmd_unpause_profiling()
        report = json.loads("\n".join(s.cmd_report()))
        assert "memory" in report and "events" in report, report
        s.cmd_clear()
        eq(s.get_value("hi"), 9)  # clear empties caches, not variables
        eq(s.cmd_tuning_params("add"), [])
        expect_failure(lambda: s.cmd_tuning_param_class("foo"), "Unknown tuning parameter")
        expect_failure(lambda: s.cmd_set_tuning_param("foo", "3"), "Unknown tuning parameter")
        expect_failure(lambda: s.cmd_tuning_params("nope"), "Unknown entry point")

    def bad_commands():
        expect_failure(lambda: s.cmd("bogus", "a"), "Unknown command: bogus")
        expect_failure(lambda: s.cmd("free", '"unterminated'), "unterminated quote")
        expect_failure(lambda: s.cmd("rename", "a"), "Wrong number of arguments")
        eq(s.get_value("hi"), 9)

    for name, fn in [("scalars", scalars), ("arrays", arrays), ("matrix", matrix), ("bools", bools),
                     ("several outputs", several_outputs), ("one tuple output", one_tuple_output),
                     ("interface", interface), ("store bytes", store_bytes),
                     ("text restore", text_restore), ("unknown entry", unknown_entry),
                     ("failing entry", failing_entry), ("wrong calls", wrong_calls),
                     ("malformed restore", malformed_restore), ("variables", variables),
                     ("context commands", context_commands), ("bad commands", bad_commands)]:
        check("arith: " + name, fn)


def consume_checks(s):
    def consumed():
        s.put_value("xs", np.array([1, 2, 3], dtype=np.int32))
        s.put_value("i", np.int64(1))
        s.cmd_call("bump", "ys", "xs", "i")
        assert np.array_equal(s.get_value("ys"), np.array([1, 102, 3], dtype=np.int32))
        eq(s.cmd_inputs("bump"), ["*[]i32", "i64"])
        expect_failure(lambda: s.get_value("xs"), "consumed")
        s.cmd_free("xs")  # consumed variables may still be freed
        s.cmd_call("sum", "total", "ys")
        eq(s.get_value("total"), 106)

    def out_of_bounds():
        s.put_value("i9", np.int64(9))
        expect_failure(lambda: s.cmd_call("bump", "zs", "ys", "i9"), "")
        eq(s.get_value("total"), 106)

    check("consume: consumed input", consumed)
    check("consume: index out of bounds", out_of_bounds)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the client's temporary files are absolute; this is for safety only
        for prog, checks in [("arith", arith_checks), ("consume", consume_checks)]:
            try:
                # futhorc executables speak the protocol when run with --server
                # (Futhark's are compiled for it; the client passes options on).
                with Server(os.path.join(BUILD, prog), "--server") as s:
                    checks(s)
            except Exception as e:  # noqa: BLE001 - a crashed server is one failure
                print("FAIL %s: server: %s: %s" % (prog, type(e).__name__, e))


main()
