"""futhark-ffi 0.16 (from PyPI) driving the library that `futhorc c
--library` or `futhorc opencl --library` makes of tests/library/opaque.fut:
opaque records and tuples returned by entry points and passed back, and
futhark-ffi's store_NAME and restore_NAME. Run by tests/library/run.sh in
the directory where build_futhark_ffi built the module _opaque. Prints
"ok NAME" or "FAIL NAME: why" per check."""
import sys

import numpy as np

import _opaque
from futhark_ffi import Futhark

from ffi_checks import Checks

check = Checks("ffi opaque")


def main():
    fut = Futhark(_opaque)
    p = fut.mk_point(3.0, 4.0)
    check(fut.norm2(p) == 25.0, "a record from one entry point into another")
    check(fut.norm2(fut.shift(p, 1.0)) == 41.0, "a record result passed on at once")

    c = fut.mk_cloud(np.array([1.0, 2.0, 3.0], dtype=np.float32), 2.0)
    check(fut.cloud_total(c) == 12.0, "a record with an array field")

    n, pair = fut.counted(4)
    check(n == 4 and fut.pair_total(pair) == 10, "a tuple inside a top-level tuple result", (n,))

    z = fut.zipped(np.array([1, 2, 3], dtype=np.int32), np.array([0.5, 0.25, 0.25], dtype=np.float32))
    check(fut.zipped_total(z) == 7.0, "an array of tuples")

    stored = fut.store_point(p)
    check(len(stored) > 0 and fut.norm2(fut.restore_point(stored)) == 25.0, "store_point and restore_point")
    stored = bytes(fut.store_cloud(c))
    check(fut.cloud_total(fut.restore_cloud(stored)) == 12.0, "store and restore a record with an array")
    try:
        fut.restore_point(b"not an opaque value at all")
        check(False, "restore of other bytes raises", "no exception")
    except ValueError:
        check(True, "restore of other bytes raises")
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
