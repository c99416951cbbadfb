"""The check helper of the futhark-ffi tests (ffi_test.py,
ffi_opaque_test.py): each check prints "ok PREFIX: NAME" or
"FAIL PREFIX: NAME: why", and the failures are counted."""


class Checks:
    def __init__(self, prefix):
        self.prefix = prefix
        self.failures = 0

    def __call__(self, ok, name, why=""):
        if ok:
            print("ok %s: %s" % (self.prefix, name))
        else:
            self.failures += 1
            print("FAIL %s: %s: %s" % (self.prefix, name, why))
