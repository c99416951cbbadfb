"""The released Python binding futhark-ffi (0.16, from PyPI) driving a
library made by `futhorc c --library` or `futhorc opencl --library` from
tests/library/arrays.fut: run by tests/library/run.sh inside a virtual
environment, in the directory where build_futhark_ffi built the module
_arrays. Prints "ok NAME" or "FAIL NAME: why" per check."""
import sys

import numpy as np

import _arrays
from futhark_ffi import Futhark

from ffi_checks import Checks

check = Checks("ffi")


def main():
    fut = Futhark(_arrays)
    s = fut.sum(np.arange(1, 101, dtype=np.int32))
    check(s == 5050, "sum of []i32", s)

    r = fut.from_futhark(fut.scale(0.5, np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)))
    check(r.shape == (2, 3) and r[1, 2] == 3.0, "[][]f32 result", r)

    total, mx, dbl = fut.stats(np.array([1.0, 7.0, -2.0, 3.0]))
    d = fut.from_futhark(dbl)
    check(total == 9.0 and mx == 7.0 and list(d) == [2.0, 14.0, -4.0, 6.0], "several results", (total, mx, d))

    c = fut.from_futhark(fut.incr3(np.arange(24, dtype=np.int16).reshape(2, 3, 4)))
    check(c.shape == (2, 3, 4) and c[1, 2, 3] == 24, "[][][]i16", c)

    check(fut.at(np.array([9, 8, 7], dtype=np.uint8), 2) == 7, "u8 result")
    check(fut.answer() == 42, "entry without arguments")

    res = fut.next(1, 2, 3, 4, 5, 6, 7, 8, 1.5, 2.5, True)
    check(list(res[:10]) == [2, 3, 4, 5, 6, 7, 8, 9, 2.5, 3.5] and res[10] is False, "eleven scalar results", res)

    try:
        fut.add(np.arange(3), np.arange(4))
        check(False, "size mismatch raises", "no exception")
    except ValueError as e:
        check("size" in str(e), "size mismatch raises", e)

    try:
        fut.checked_div(1, 0)
        check(False, "failing entry raises", "no exception")
    except ValueError as e:
        check("ssertion" in str(e), "failing entry raises", e)

    check(fut.checked_div(7, 2) == 3, "context works after errors")
    check(fut.report().startswith("{"), "report")

    m = fut.scale(2.0, np.ones((2, 2), dtype=np.float32))
    r = fut.from_futhark(fut.scale(0.25, m))
    check(r.shape == (2, 2) and r[1, 1] == 0.5, "a result passed to the next entry point", r)

    try:
        fut.gather(np.array([10, 20, 30], dtype=np.int32), np.array([2, 7]))
        check(False, "failure in a parallel map raises", "no exception")
    except ValueError as e:
        check("arrays.fut:35:" in str(e), "failure in a parallel map raises, naming the source", e)

    if hasattr(_arrays.lib, "futhark_context_config_set_device"):
        opencl_checks()
    return 1 if check.failures else 0


def opencl_checks():
    """The OpenCL library: devices chosen through futhark-ffi's options."""
    fut = Futhark(_arrays, device=b"#0", platform=b"#0")
    check(fut.sum(np.arange(4, dtype=np.int32)) == 6, "device and platform #0")
    try:
        Futhark(_arrays, device=b"no-such-device")
        check(False, "a bad device name raises", "no exception")
    except ValueError as e:
        check("no-such-device" in str(e), "a bad device name raises", e)
    name = _arrays.ffi.string(_arrays.lib.futhark_get_tuning_param_name(0))
    fut = Futhark(_arrays, tuning={name.decode(): 32})
    check(fut.sum(np.arange(10, dtype=np.int32)) == 45, "a tuning parameter", name)


if __name__ == "__main__":
    sys.exit(main())
