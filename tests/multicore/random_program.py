#!/usr/bin/env python3
"""A random Futhark program for tests/multicore/random.sh: one entry point
that maps a random integer expression over iota n, with while loops (a
counter bounds each), for loops whose bounds differ between elements,
branches, lets, min/max, division and modulo by constants, reads of an
array argument, and inner reductions, scans and maps over a few elements.
Deterministic in the seed.

With f32, a program of the same shapes over floats (FloatGen).

    usage: random_program.py SEED [f32]
"""
import random
import sys


class Gen:
    """Integer programs. expr picks one of FORMS by a random number below
    each form's bound; FloatGen replaces the forms that depend on the type."""

    FORMS = [(0.25, "binop"), (0.35, "mod"), (0.42, "div"), (0.48, "minmax"), (0.62, "branch"), (0.74, "let"),
             (0.80, "while_loop"), (0.88, "for_loop"), (1.0, "inner")]
    BINOPS = ["+", "-", "*"]

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.n = 0

    def fresh(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    def atom(self, vs):
        k = self.r.random()
        if k < 0.15:
            return f"xs[({self.r.choice(vs)}) % 37]"
        if k < 0.75:
            return self.r.choice(vs)
        c = self.r.randint(-5, 9)
        return f"({c})" if c < 0 else str(c)

    def cond(self, vs, d):
        c = f"({self.expr(vs, d - 1)} {self.r.choice(['<', '<=', '==', '!=', '>', '>='])} {self.expr(vs, d - 1)})"
        if self.r.random() < 0.3:
            c = f"({c} {self.r.choice(['&&', '||'])} ({self.expr(vs, d - 1)} % 3 == 0))"
        return c

    def expr(self, vs, d):
        if d <= 0:
            return self.atom(vs)
        k = self.r.random()
        form = next(name for bound, name in self.FORMS if k < bound)
        return getattr(self, form)(vs, d, k, lambda ws=vs: self.expr(ws, d - 1))

    def binop(self, vs, d, k, sub):
        return f"({sub()} {self.r.choice(self.BINOPS)} {sub()})"

    def mod(self, vs, d, k, sub):
        return f"({sub()} % {self.r.randint(1, 7)})"

    def div(self, vs, d, k, sub):
        return f"({sub()} / {self.r.randint(1, 5)})"

    def minmax(self, vs, d, k, sub):
        return f"(i64.{self.r.choice(['min', 'max'])} {sub()} {sub()})"

    def branch(self, vs, d, k, sub):
        return f"(if {self.cond(vs, d - 1)} then {sub()} else {sub()})"

    def let(self, vs, d, k, sub):
        x = self.fresh("x")
        return f"(let {x} = {sub()} in {sub(vs + [x])})"

    def while_loop(self, vs, d, k, sub):
        a, b, c = self.fresh("a"), self.fresh("b"), self.fresh("c")
        inner = vs + [a, b, c]
        step = "1" if self.r.random() < 0.7 else f"(if {self.cond(inner, 1)} then 1 else 2)"
        start = "0" if self.r.random() < 0.7 else self.expr(vs, 1)
        res = self.r.choice([a, b, c, f"({a} + {b} * 3 + {c})"])
        return (f"(let ({a}, {b}, {c}) = loop ({a}, {b}, {c}) = ({sub()}, {sub()}, {start}) "
                f"while {c} < {self.r.randint(0, 12)} && {self.cond(inner, d - 1)} do "
                f"({sub(inner)}, {sub(inner)}, {c} + {step}) in {res})")

    def for_loop(self, vs, d, k, sub):
        acc, j = self.fresh("acc"), self.fresh("j")
        return f"(loop {acc} = {sub()} for {j} < ({sub()}) % 6 do {sub(vs + [acc, j])})"

    def inner(self, vs, d, k, sub):
        """A reduction, a scan or a map over a few elements."""
        q = self.fresh("k")
        body = sub(vs + [q])
        if k < 0.93:
            op, ne = self.r.choice([("(+)", "0"), ("i64.max", "i64.lowest"), ("i64.min", "i64.highest")])
            return f"(reduce {op} {ne} (map (\\{q} -> {body}) (iota (({sub()}) % 7))))"
        n = self.r.randint(1, 6)
        arr = f"(map (\\{q} -> {body}) (iota {n}))"
        if k < 0.97:
            arr = f"(scan (+) 0 {arr})"
        return f"({arr})[({sub()}) % {n}]"


def clamp(e):
    return f"f32.min 1e6 (f32.max (-1e6) {e})"


class FloatGen(Gen):
    """The same shapes over f32: arithmetic, a few functions, min/max, while
    and for loops (results kept within +-1e6), inner reductions."""

    FORMS = [(0.25, "binop"), (0.32, "div"), (0.40, "fun"), (0.46, "minmax"), (0.60, "branch"), (0.70, "let"),
             (0.82, "while_loop"), (0.90, "for_loop"), (1.0, "inner")]

    def atom(self, vs):
        k = self.r.random()
        if k < 0.15:
            return f"xs[i64.f32 (f32.abs ({self.r.choice(vs)})) % 37]"
        if k < 0.75:
            return self.r.choice(vs)
        c = round(self.r.uniform(-4, 4), 2)
        return f"({c}f32)"

    def cond(self, vs, d):
        return f"({self.expr(vs, d - 1)} {self.r.choice(['<', '<=', '>', '>='])} {self.expr(vs, d - 1)})"

    def div(self, vs, d, k, sub):
        return f"({sub()} / ({sub()} * {sub()} + 1))"

    def fun(self, vs, d, k, sub):
        fn = self.r.choice(["sqrt", "exp", "sin", "cos", "abs", "floor", "tanh"])
        return f"(f32.{fn} (f32.abs ({sub()}) * 0.1f32 + 0.5f32))"

    def minmax(self, vs, d, k, sub):
        return f"(f32.{self.r.choice(['min', 'max'])} {sub()} {sub()})"

    def while_loop(self, vs, d, k, sub):
        a, c = self.fresh("a"), self.fresh("c")
        return (f"(let ({a}, {c}) = loop ({a}, {c}) = ({sub()}, 0i32) while {c} < {self.r.randint(0, 9)} && "
                f"{self.cond(vs + [a], d - 1)} do ({clamp(sub(vs + [a]))}, {c} + 1) in {a} + f32.i32 {c})")

    def for_loop(self, vs, d, k, sub):
        acc, j = self.fresh("acc"), self.fresh("j")
        return f"(loop {acc} = {sub()} for {j} < i64.f32 (f32.abs ({sub()})) % 5 do {clamp(sub(vs + [acc]))})"

    def inner(self, vs, d, k, sub):
        q = self.fresh("k")
        return f"(reduce (+) 0 (map (\\{q} -> {sub(vs + [f'(f32.i64 {q})'])}) (iota 4)))"


def program(seed, floats):
    if floats:
        e = FloatGen(seed).expr(["x", "m"], 4)
        return (f"entry main (m: f32) (xs: [37]f32) (ys: []f32) : []f32 =\n"
                f"  map (\\x -> f32.min 1e6 (f32.max (-1e6) {e})) ys\n")
    e = Gen(seed).expr(["i", "m"], 5)
    return f"entry main (n: i64) (m: i64) (xs: [37]i64) : [n]i64 =\n  map (\\i -> {e}) (iota n)\n"


if __name__ == "__main__":
    sys.stdout.write(program(int(sys.argv[1]), len(sys.argv) > 2 and sys.argv[2] == "f32"))
