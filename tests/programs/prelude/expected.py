#!/usr/bin/env python3
"""Writes the test blocks of integral.fut, real.fut and float_bits.fut in
this folder: the expected outputs are computed here, in Python, from
Futhark's documented semantics (wrapping integers, division rounding
towards -inf, libm functions), never by running futhorc. Run it from the
repository root after changing a test's inputs: python3 tests/programs/prelude/expected.py"""
import math, struct, os
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
INTS = [("i8", 8, True), ("u8", 8, False), ("i16", 16, True), ("u16", 16, False),
        ("i32", 32, True), ("u32", 32, False), ("i64", 64, True), ("u64", 64, False)]

def wrap(bits, signed, v):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v

def lit(t, v):
    if t in ("f32", "f64"):
        if math.isnan(v): return f"{t}.nan"
        if math.isinf(v): return f"{t}.inf" if v > 0 else f"-{t}.inf"
        return f"{v!r}{t}"
    if t == "bool": return "true" if v else "false"
    return f"{v}{t}"

def arr(t, vs): return "[" + ", ".join(lit(t, v) for v in vs) + "]"

def integral_case(t, bits, signed, a, b):
    w = lambda v: wrap(bits, signed, v)
    u = lambda v: v & ((1 << bits) - 1)
    quot = lambda x, y: abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    mul_hi = lambda x, y: w((x * y) >> bits)
    arith = [a + b, a - b, a * b, a // b, a % b, a ** 2, quot(a, b), a - quot(a, b) * b,
             a & b, a | b, a ^ b, ~a, a << 1, a >> 1, u(a) >> 1,
             -a, max(a, b), min(a, b), abs(a), (a > 0) - (a < 0),
             (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1, -(1 << (bits - 1)) if signed else 0,
             a + b, a * b, max(a, b), min(a, b), mul_hi(a, b), mul_hi(a, b) + a, (a & ~2) | 2]
    cmp = [a == b, a < b, a > b, a <= b, a >= b, a != b]
    x = u(a)
    bitsv = [bits, (x >> 1) & 1, bin(x).count("1"),
             bits - x.bit_length(), (x & -x).bit_length() - 1 if x else bits]
    # i8 (-3), i16 300, i32 (-5), i64 7, u8 200, u16 65535, u32 9, u64 10,
    # f32 3.7, f64 2.5, bool true: converted to t
    # (a signed source is sign-extended only into a signed type)
    srcs = [(-3, 8), (300, 16), (-5, 32), (7, 64), (200, 8), (65535, 16), (9, 32), (10, 64)]
    conv = [v if signed else v & ((1 << sb) - 1) for v, sb in srcs] + [3, 2, 1]
    inp = f"{lit(t, a)} {lit(t, b)}"
    out = (f"{arr(t, [w(v) for v in arith])} {arr('bool', cmp)} {arr('i32', bitsv)} "
           f"{arr(t, [w(v) for v in conv])} {lit('i64', wrap(64, True, a))}")
    return inp, out

def f32(x): return struct.unpack("f", struct.pack("f", x))[0]
def bits32(x): return struct.unpack("I", struct.pack("f", x))[0]
def bits64(x): return struct.unpack("Q", struct.pack("d", x))[0]

def real_case(t, a, b):
    r = f32 if t == "f32" else (lambda v: v)
    a, b = r(a), r(b)
    pi = math.pi
    # groups of similar magnitude (the test tolerance is relative to a group's largest element)
    basic = [a + b, a - b, a * b, a / b, math.fmod(a, b), a ** 2, -a, max(a, b), min(a, b), abs(a),
             (a > 0) - (a < 0), a + b, a * b, max(a, b), min(a, b), 1 / a, 1 / 4]
    fns = [math.sqrt(b), 1 / math.sqrt(b), math.copysign(abs(a) ** (1 / 3), a), math.exp(a),
           math.sin(a), math.cos(a), math.tan(a), math.sin(pi * a), math.cos(pi * a), math.tan(pi * a),
           math.asin(a), math.acos(a), math.atan(a), math.asin(a) / pi, math.acos(a) / pi, math.atan(a) / pi,
           math.sinh(a), math.cosh(a), math.tanh(a), math.asinh(a), math.acosh(b + 1), math.atanh(a),
           math.atan2(a, b), math.atan2(a, b) / pi, math.hypot(a, b), math.gamma(b), math.lgamma(b),
           math.erf(a), math.erfc(a), a + (b - a) * 0.25, math.log(b), math.log2(b), math.log10(b),
           math.log1p(b), math.ceil(a), math.floor(a), math.trunc(a), round(a), a * b + 1, a * b + 1,
           pi, math.e]
    conv = [-3, 300, -5, 7, 200, 65535, 9, 10, r(3.7), 2.5, 1]
    flags = [math.isinf(a), math.isnan(a), math.isinf(math.inf), math.isnan(math.nan),
             a == b, a < b, a > b, a <= b, a >= b, a != b, -math.inf == -math.inf]
    inp = f"{lit(t, a)} {lit(t, b)}"
    out = (f"{arr(t, [r(v) for v in basic])} {arr(t, [r(v) for v in fns])} {arr(t, [r(v) for v in conv])} "
           f"{arr('bool', flags)} {lit('i64', math.trunc(a))} {lit('f64', a)}")
    return inp, out

def float_bits_case(t, x, y):
    if t == "f32":
        x, y = f32(x), f32(y)
        bits, ub, ut, eps, nb = bits32, "u32", 32, 2.0 ** -23, 32
        fma = float(Fraction(f32(0.1)) * 10 - 1)
        up = struct.unpack("f", struct.pack("I", bits32(x) + (1 if x > 0 else -1)))[0]
    else:
        bits, ub, ut, eps, nb = bits64, "u64", 64, 2.0 ** -52, 64
        fma = float(Fraction(0.1) * 10 - 1)
        up = math.nextafter(x, math.inf)
    res = [bits(x), bits(math.ldexp(x, 3)), bits(math.ldexp(x, -2000)), bits(math.copysign(x, y)),
           bits(up), bits(eps), bits(fma), bits(1.0) | 1, bits(-x), bits(x) ^ (1 << 3)]
    getb = [nb, (bits(x) >> (nb - 1)) & 1, (bits(x) >> (nb - 2)) & 1, (bits(1.0) >> (nb - 2)) & 1]
    inp = f"{lit(t, x)} {lit(t, y)}"
    out = f"{arr(ub, res)} {arr('i32', getb)} {lit(t, x)}"
    return inp, out

def kernels_float(t, xs, ys):
    if t == "f32":
        r, bits, frombits, ub, nb = f32, bits32, lambda u: struct.unpack("f", struct.pack("I", u))[0], "u32", 32
        xs, ys = [f32(x) for x in xs], [f32(y) for y in ys]
        def nextafter(x, y):
            if x == y: return y
            if x == 0: return math.copysign(2.0 ** -149, y)
            return frombits(bits(x) + (1 if (y > x) == (x > 0) else -1))
    else:
        r, bits, ub, nb = (lambda v: v), bits64, "u64", 64
        frombits = lambda u: struct.unpack("d", struct.pack("Q", u))[0]
        nextafter = math.nextafter
    fma = [bits(r(float(Fraction(x) * Fraction(y) - 1))) for x, y in zip(xs, ys)]
    nxt = [bits(nextafter(x, y)) for x, y in zip(xs, ys)]
    cps = [bits(math.copysign(x, y)) for x, y in zip(xs, ys)]
    ldx = [bits(math.ldexp(x, 5)) for x in xs]
    fb = [frombits(bits(x) + 1) for x in xs]
    fns = [[math.asinh(x), math.acosh(1 + abs(x)), math.atanh(x / 8), math.log1p(abs(x)),
            math.gamma(abs(x)), math.lgamma(abs(x)), math.erf(x), math.erfc(x)] for x in xs]
    inp = f"{arr(t, xs)} {arr(t, ys)}"
    rows = "[" + ", ".join(arr(t, [r(v) for v in row]) for row in fns) + "]"
    out = f"{arr(ub, fma)} {arr(ub, nxt)} {arr(ub, cps)} {arr(ub, ldx)} {arr(t, fb)} {rows}"
    return inp, out

def kernels_ints(xs, ys):
    hi = lambda bits, signed, x, y: wrap(bits, signed, (wrap(bits, signed, x) * wrap(bits, signed, y)) >> bits)
    outs = [arr("i64", [hi(64, True, x, y) for x, y in zip(xs, ys)]),
            arr("u64", [hi(64, False, x, y) for x, y in zip(xs, ys)]),
            arr("i32", [hi(32, True, x, y) for x, y in zip(xs, ys)]),
            arr("u16", [hi(16, False, x, y) for x, y in zip(xs, ys)]),
            arr("i8", [wrap(8, True, hi(8, True, x, y) + 3) for x, y in zip(xs, ys)])]
    return f"{arr('i64', xs)} {arr('i64', ys)}", " ".join(outs)

def write_blocks(name, cases):
    path = os.path.join(HERE, name)
    text = open(path).read()
    head, _, rest = text.partition("-- ==\n")
    lines = rest.split("\n")
    while lines and lines[0].startswith("--"):
        lines.pop(0)
    body = "\n" + "\n".join(lines)
    block = ["-- =="]
    for entry, inp, out in cases:
        if entry: block.append(f"-- entry: {entry}")
        block.append(f"-- input {{ {inp} }}")
        block.append(f"-- output {{ {out} }}")
    open(path, "w").write(head + "\n".join(block) + body)

cases = []
for t, bits, signed in INTS:
    for a, b in [(-7, 3), (100, -3)]:
        w = wrap(bits, signed, a), wrap(bits, signed, b)
        cases.append((t + "s",) + integral_case(t, bits, signed, *w))
write_blocks("integral.fut", cases)
cases = [(t + "s",) + real_case(t, a, b) for t in ("f32", "f64") for a, b in [(-0.375, 2.5), (0.75, 1.25)]]
write_blocks("real.fut", cases)
cases = [(t + "s",) + float_bits_case(t, x, y) for t in ("f32", "f64") for x, y in [(1.5, -2.0), (-0.1, 3.0)]]
write_blocks("float_bits.fut", cases)
xs, ys = [0.1, -2.5, 3.75, 1e-3, 7.0], [10.0, 4.0, -0.25, 1e3, 7.0]
cases = [(t + "s",) + kernels_float(t, xs, ys) for t in ("f32", "f64")]
cases.append(("ints",) + kernels_ints([-7, 1 << 40, -(1 << 62), 123456789, 255, -(1 << 63)],
                                      [3, 1 << 40, 12345, -987654321, 255, -(1 << 63)]))
write_blocks("kernels.fut", cases)
