-- The futhorc prelude: visible in every program.
--
-- Definitions whose body is `__intrinsic "name"` are implemented by the
-- compiler (lower/internalise.c); everything else is ordinary code. The
-- numeric modules (i8 ... u64, f16, f32, f64, bool) are built into the
-- checker (check/numeric.def); the module types below describe them as
-- Futhark's prelude does, so that they can be the arguments of parametric
-- modules written for Futhark
-- (`module F (R: real) = ...`, `F f32`).

-- | Conversions from every primitive type.
module type from_prim = {
  type t
  val i8 : i8 -> t
  val i16 : i16 -> t
  val i32 : i32 -> t
  val i64 : i64 -> t
  val u8 : u8 -> t
  val u16 : u16 -> t
  val u32 : u32 -> t
  val u64 : u64 -> t
  val f16 : f16 -> t
  val f32 : f32 -> t
  val f64 : f64 -> t
  val bool : bool -> t
}

-- | The operations of every numeric type.
module type numeric = {
  include from_prim
  val (+) : t -> t -> t
  val (-) : t -> t -> t
  val (*) : t -> t -> t
  val (/) : t -> t -> t
  val (%) : t -> t -> t
  val (**) : t -> t -> t
  val to_i64 : t -> i64
  val (==) : t -> t -> bool
  val (<) : t -> t -> bool
  val (>) : t -> t -> bool
  val (<=) : t -> t -> bool
  val (>=) : t -> t -> bool
  val (!=) : t -> t -> bool
  val neg : t -> t
  val max : t -> t -> t
  val min : t -> t -> t
  val abs : t -> t
  val sgn : t -> t
  val highest : t
  val lowest : t
  val sum [n] : [n]t -> t
  val product [n] : [n]t -> t
  val maximum [n] : [n]t -> t
  val minimum [n] : [n]t -> t
}

-- | Integers.
module type integral = {
  include numeric
  val (//) : t -> t -> t
  val (%%) : t -> t -> t
  val (&) : t -> t -> t
  val (|) : t -> t -> t
  val (^) : t -> t -> t
  val not : t -> t
  val (<<) : t -> t -> t
  val (>>) : t -> t -> t
  val (>>>) : t -> t -> t
  val num_bits : i32
  val get_bit : i32 -> t -> i32
  val set_bit : i32 -> t -> i32 -> t
  val popc : t -> i32
  val mul_hi : (x: t) -> (y: t) -> t
  val mad_hi : (a: t) -> (b: t) -> (c: t) -> t
  val clz : t -> i32
  val ctz : t -> i32
}

-- | Floating-point numbers.
module type real = {
  include numeric
  val recip : t -> t
  val from_fraction : i64 -> i64 -> t
  val to_f64 : t -> f64
  val sqrt : t -> t
  val rsqrt : t -> t
  val cbrt : t -> t
  val exp : t -> t
  val sin : t -> t
  val cos : t -> t
  val tan : t -> t
  val sinpi : t -> t
  val cospi : t -> t
  val tanpi : t -> t
  val asin : t -> t
  val acos : t -> t
  val atan : t -> t
  val asinpi : t -> t
  val acospi : t -> t
  val atanpi : t -> t
  val sinh : t -> t
  val cosh : t -> t
  val tanh : t -> t
  val asinh : t -> t
  val acosh : t -> t
  val atanh : t -> t
  val atan2 : t -> t -> t
  val atan2pi : t -> t -> t
  val hypot : t -> t -> t
  val gamma : t -> t
  val lgamma : t -> t
  val erf : t -> t
  val erfc : t -> t
  val lerp : t -> t -> t -> t
  val log : t -> t
  val log2 : t -> t
  val log10 : t -> t
  val log1p : t -> t
  val ceil : t -> t
  val floor : t -> t
  val trunc : t -> t
  val round : t -> t
  val mad : (a: t) -> (b: t) -> (c: t) -> t
  val fma : (a: t) -> (b: t) -> (c: t) -> t
  val isinf : t -> bool
  val isnan : t -> bool
  val inf : t
  val nan : t
  val pi : t
  val e : t
}

-- | IEEE floating-point numbers and their bits.
module type float = {
  include real
  type int_t
  val from_bits : int_t -> t
  val to_bits : t -> int_t
  val num_bits : i32
  val get_bit : i32 -> t -> i32
  val set_bit : i32 -> t -> i32 -> t
  val epsilon : t
  val nextafter : (x: t) -> (y: t) -> t
  val ldexp : t -> i32 -> t
  val copysign : (x: t) -> (y: t) -> t
}

-- | Apply a function to every element of an array.
def map 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x = __intrinsic "map"

-- | Reduce an array with an associative operator and its neutral element.
def reduce [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a = __intrinsic "reduce"

-- | Like `reduce`, for an operator that is also commutative.
def reduce_comm [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a = __intrinsic "reduce_comm"

-- | Inclusive prefix scan with an associative operator.
def scan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a = __intrinsic "scan"

-- | Write `vs[j]` to `dest[is[j]]`; out-of-bounds indices are ignored.
def scatter 't [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t) : *[k]t = __intrinsic "scatter"

-- | Combine `as[j]` into `dest[is[j]]` with `f`; out-of-bounds indices are ignored.
def reduce_by_index 'a [k] [n] (dest: *[k]a) (f: a -> a -> a) (ne: a) (is: [n]i64) (as: [n]a) : *[k]a =
  __intrinsic "reduce_by_index"

-- | The elements for which the predicate holds, in order.
def filter [n] 'a (p: a -> bool) (as: [n]a) : *[]a = __intrinsic "filter"

-- | The elements for which the predicate holds, then the others, each in order.
def partition [n] 'a (p: a -> bool) (as: [n]a) : ?[k].([k]a, [n - k]a) = __intrinsic "partition"

-- | `[0, 1, ..., n-1]`.
def iota (n: i64) : *[n]i64 = __intrinsic "iota"

-- | An array of `n` copies of `x`.
def replicate 't (n: i64) (x: t) : *[n]t = __intrinsic "replicate"

-- | A fresh copy of a value.
def copy 't (a: t) : *t = __intrinsic "copy"

def zip [n] 'a 'b (as: [n]a) (bs: [n]b) : [n](a, b) = __intrinsic "zip"
def zip2 [n] 'a 'b (as: [n]a) (bs: [n]b) : [n](a, b) = __intrinsic "zip"
def zip3 [n] 'a 'b 'c (as: [n]a) (bs: [n]b) (cs: [n]c) : [n](a, b, c) = __intrinsic "zip"
def zip4 [n] 'a 'b 'c 'd (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : [n](a, b, c, d) =
  __intrinsic "zip"
def zip5 [n] 'a 'b 'c 'd 'e (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : [n](a, b, c, d, e) =
  __intrinsic "zip"

def unzip [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) = __intrinsic "unzip"
def unzip2 [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) = __intrinsic "unzip"
def unzip3 [n] 'a 'b 'c (xs: [n](a, b, c)) : ([n]a, [n]b, [n]c) = __intrinsic "unzip"
def unzip4 [n] 'a 'b 'c 'd (xs: [n](a, b, c, d)) : ([n]a, [n]b, [n]c, [n]d) = __intrinsic "unzip"
def unzip5 [n] 'a 'b 'c 'd 'e (xs: [n](a, b, c, d, e)) : ([n]a, [n]b, [n]c, [n]d, [n]e) =
  __intrinsic "unzip"

-- | Join the rows of a two-dimensional array.
def flatten [n] [m] 't (xs: [n][m]t) : [n * m]t = __intrinsic "flatten"

-- | Split an array into `n` rows of `m` elements.
def unflatten 't [n] [m] (xs: [n * m]t) : [n][m]t = __intrinsic "unflatten"

-- | Split an array into `n` rows of `sizes[i]` elements each, in order: an
-- irregular array (a futhorc extension, futhorc-irregular(7)), whose rows
-- are views of `xs`. The sizes must be non-negative and add up to `m`.
def unflatten_irregular [n] [m] 't (sizes: [n]i64) (xs: [m]t) : [n][]t = __intrinsic "unflatten_irregular"

-- | An irregular array as entry points take and return it (a futhorc
-- extension, futhorc-irregular(7)): its rows' elements one after another,
-- and each row's length. An opaque value in the C API; the elements, then
-- the lengths, in the data formats.
type~ irregular [n] 't = {elems: []t, sizes: [n]i64}

-- | The rows of `xs` (an irregular array, or any array of arrays) as an
-- `irregular` record.
def to_irregular [n] 't (xs: [n][]t) : irregular [n] t = __intrinsic "to_irregular"

-- | The irregular array of an `irregular` record's rows.
def from_irregular [n] 't (x: irregular [n] t) : [n][]t = __intrinsic "from_irregular"

-- | Join the innermost rows of a three-dimensional array, then the result's rows.
def flatten_3d [n] [m] [l] 't (xs: [n][m][l]t) : [n * m * l]t = flatten (flatten xs)

-- | Split an array into `n` by `m` rows of `l` elements.
def unflatten_3d 't [n] [m] [l] (xs: [n * m * l]t) : [n][m][l]t = unflatten (unflatten xs)

-- | Swap the two outer dimensions.
def transpose [n] [m] 't (a: [n][m]t) : [m][n]t = __intrinsic "transpose"

-- | Append one array to another.
def concat [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n + m]t = __intrinsic "concat"

def (++) [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n + m]t = concat xs ys

-- | The number of elements of an array.
def length [n] 't (_: [n]t) : i64 = n

def map1 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x = map f as
def map2 'a 'b [n] 'x (f: a -> b -> x) (as: [n]a) (bs: [n]b) : *[n]x =
  map (\(a, b) -> f a b) (zip as bs)
def map3 'a 'b 'c [n] 'x (f: a -> b -> c -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) : *[n]x =
  map (\(a, b, c) -> f a b c) (zip3 as bs cs)
def map4 'a 'b 'c 'd [n] 'x (f: a -> b -> c -> d -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : *[n]x =
  map (\(a, b, c, d) -> f a b c d) (zip4 as bs cs ds)
def map5 'a 'b 'c 'd 'e [n] 'x (f: a -> b -> c -> d -> e -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : *[n]x =
  map (\(a, b, c, d, e) -> f a b c d e) (zip5 as bs cs ds es)

-- | Like `reduce_by_index` into a fresh array of `k` neutral elements.
def hist 'a [n] (op: a -> a -> a) (ne: a) (k: i64) (is: [n]i64) (as: [n]a) : *[k]a =
  reduce_by_index (replicate k ne) op ne is as

-- | Exclusive prefix scan: element i combines the elements before i.
def exscan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a =
  let s = scan op ne as
  in map (\i -> if i == 0 then ne else s[i - 1]) (iota n)

-- | The elements satisfying p1, those satisfying p2 but not p1, and the rest.
def partition2 [n] 'a (p1: a -> bool) (p2: a -> bool) (as: [n]a) : ([]a, []a, []a) =
  (filter p1 as, filter (\x -> !(p1 x) && p2 x) as, filter (\x -> !(p1 x) && !(p2 x)) as)

-- | `scatter` into a two-dimensional array; out-of-bounds indices are ignored.
def scatter_2d 't [n] [m] [k] (dest: *[n][m]t) (is: [k](i64, i64)) (vs: [k]t) : *[n][m]t =
  let flat = scatter (flatten dest) (map (\(i, j) -> if i >= 0 && i < n && j >= 0 && j < m then i * m + j else -1) is) vs
  in unflatten flat

-- | `reduce_by_index` into a two-dimensional array.
def reduce_by_index_2d 'a [n] [m] [k] (dest: *[n][m]a) (f: a -> a -> a) (ne: a) (is: [k](i64, i64)) (as: [k]a) : *[n][m]a =
  let flat = reduce_by_index (flatten dest) f ne
                             (map (\(i, j) -> if i >= 0 && i < n && j >= 0 && j < m then i * m + j else -1) is) as
  in unflatten flat

-- | `hist` into a fresh two-dimensional array of `n` by `m` neutral elements.
def hist_2d 'a [k] (op: a -> a -> a) (ne: a) (n: i64) (m: i64) (is: [k](i64, i64)) (as: [k]a) : *[n][m]a =
  reduce_by_index_2d (replicate n (replicate m ne)) op ne is as

def tabulate 'a (n: i64) (f: i64 -> a) : *[n]a = map f (iota n)
def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : *[n][m]a =
  map (\i -> map (f i) (iota m)) (iota n)
def tabulate_3d 'a (n: i64) (m: i64) (o: i64) (f: i64 -> i64 -> i64 -> a) : *[n][m][o]a =
  map (\i -> map (\j -> map (f i j) (iota o)) (iota m)) (iota n)

-- | The indices of an array: `[0, ..., n-1]`.
def indices [n] 't (_: [n]t) : *[n]i64 = iota n

-- | Element `i` of the result is `a[(i + r) mod n]`.
def rotate [n] 't (r: i64) (a: [n]t) : [n]t = map (\i -> a[(i + r) % n]) (iota n)

def reverse [n] 't (a: [n]t) : [n]t = a[::-1]

def take [n] 't (i: i64) (x: [n]t) : [i]t = x[0:i]
def drop [n] 't (i: i64) (x: [n]t) : [n - i]t = x[i:]
def split [n] [m] 't (xs: [n + m]t) : ([n]t, [m]t) = (xs[0:n], xs[n:n + m] :> [m]t)

def head [n] 't (x: [n]t) : t = x[0]
def last [n] 't (x: [n]t) : t = x[n - 1]
def tail [n] 't (x: [n]t) : [n - 1]t = x[1:]
def init [n] 't (x: [n]t) : [n - 1]t = x[0:n - 1]

def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs do f acc b
def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (bs: [n]b) : a =
  loop acc for b in bs[::-1] do f b acc

def all [n] 'a (f: a -> bool) (as: [n]a) : bool = reduce (&&) true (map f as)
def any [n] 'a (f: a -> bool) (as: [n]a) : bool = reduce (||) false (map f as)
def and [n] (bs: [n]bool) : bool = reduce (&&) true bs
def or [n] (bs: [n]bool) : bool = reduce (||) false bs

def id '^a (x: a) : a = x
def const '^a '^b (x: a) (_: b) : a = x

-- | Whether an array has no elements.
def null [n] 't (_: [n]t) : bool = n == 0

-- | The array with its size stated as `n` (checked at run time).
def sized [m] 't (n: i64) (xs: [m]t) : [n]t = xs :> [n]t

-- | An array of copies of `x`, its size taken from the context.
def rep 't [n] (x: t) : *[n]t = replicate n x

-- | A copy of a value laid out in row-major order.
def manifest 't (a: t) : *t = copy a

-- | Join the three inner dimensions of a four-dimensional array into one.
def flatten_4d [n] [m] [l] [k] 't (xs: [n][m][l][k]t) : [n * m * l * k]t = flatten (flatten_3d xs)

-- | Split an array into `n` by `m` by `l` rows of `k` elements.
def unflatten_4d 't [n] [m] [l] [k] (xs: [n * m * l * k]t) : [n][m][l][k]t =
  unflatten (unflatten_3d xs)

-- | `reduce_by_index` into a three-dimensional array.
def reduce_by_index_3d 'a [k] [n] [m] [l] (dest: *[k][m][l]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64, i64)) (as: [n]a) : *[k][m][l]a =
  let flat = reduce_by_index (flatten_3d dest) f ne
                             (map (\(i, j, q) -> if i >= 0 && i < k && j >= 0 && j < m && q >= 0 && q < l
                                                 then (i * m + j) * l + q else -1) is) as
  in unflatten_3d flat

-- | `scatter` into a three-dimensional array; out-of-bounds indices are ignored.
def scatter_3d 't [k] [n] [o] [l] (dest: *[k][n][o]t) (is: [l](i64, i64, i64)) (vs: [l]t) : *[k][n][o]t =
  let flat = scatter (flatten_3d dest)
                     (map (\(i, j, q) -> if i >= 0 && i < k && j >= 0 && j < n && q >= 0 && q < o
                                         then (i * n + j) * o + q else -1) is) vs
  in unflatten_3d flat

-- | `k` copies of `x`, then `vs[j]` written at `is[j]` (out-of-bounds indices ignored).
def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : *[k]t = scatter (replicate k x) is vs

def flip '^a '^b '^c (f: a -> b -> c) (b: b) (a: a) : c = f a b
def curry '^a '^b '^c (f: (a, b) -> c) (a: a) (b: b) : c = f (a, b)
def uncurry '^a '^b '^c (f: a -> b -> c) (a: a, b: b) : c = f a b

-- | `f` applied `n` times to `x`.
def iterate 'a (n: i32) (f: a -> a) (x: a) : a = loop x for _i < n do f x

-- | `f` applied to `x` until `p` holds (perhaps never).
def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while !(p x) do f x

-- | `f` applied to `x` while `p` holds (perhaps never).
def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while p x do f x

def r32 (x: i32) : f32 = f32.i32 x
def t32 (x: f32) : i32 = i32.f32 x
def r64 (x: i32) : f64 = f64.i32 x
def t64 (x: f64) : i32 = i32.f64 x

-- | Boolean negation as a function.
def not (x: bool) : bool = !x

-- | The identity; Futhark uses it to block optimisations, futhorc needs no such hint.
def opaque 't (x: t) : t = x

-- | The identity (Futhark's interpreter prints the value; compiled code does not).
def trace 't (x: t) : t = x

-- | The identity (a break point in Futhark's debugger).
def break 't (x: t) : t = x

-- | `f` applied to every element, its arrays joined: the segment sizes,
-- flags marking where segments begin, segment offsets, the joined data,
-- and the other results. `f` runs once per element and once per element
-- of the data.
def flatmap [n] 'a 'b 'c (f: a -> ?[k].([k]b, c)) (as: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  let (shape, other) = unzip (map (\x -> let (d, c) = f x in (length d, c)) as)
  let offsets = exscan (+) 0 shape
  let m = reduce (+) 0 shape
  let starts = map2 (\o s -> if s > 0 then o else -1) offsets shape
  let flags = spread m false starts (replicate n true)
  let segment = scan (\x y -> if x > y then x else y) 0 (spread m 0 starts (iota n))
  let data = map (\j -> let i = segment[j] in (f as[i]).0[j - offsets[i]]) (iota m)
  in (shape, flags, offsets, data, other)

-- | `flatmap` of a function with an array result only.
def flatmap' [n] 'a 'b (f: a -> ?[k].[k]b) (as: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b) =
  let (shape, flags, offsets, data, _) = flatmap (\x -> (f x, ())) as
  in (shape, flags, offsets, data)

-- | Futhark's `intrinsics` module, of which futhorc has the flat slices:
-- an array's outer dimension seen through an offset and strides (an LMAD).
-- Element `(i, j)` of `flat_index_2d as offset n1 s1 n2 s2` is
-- `as[offset + i*s1 + j*s2]`; the result is a view, no copy. `flat_update_2d
-- as offset s1 s2 vs` writes `vs` (of shape `[k][l]`) there in place. Every
-- element the slice addresses must be in `as` (unless the slice is empty).
module intrinsics = {
  def flat_index_2d [n] 'a (as: [n]a) (offset: i64) (n1: i64) (s1: i64) (n2: i64) (s2: i64) : [n1][n2]a =
    __intrinsic "flat_index"
  def flat_update_2d [n] [k] [l] 'a (as: *[n]a) (offset: i64) (s1: i64) (s2: i64) (vs: [k][l]a) : *[n]a =
    __intrinsic "flat_update"
  def flat_index_3d [n] 'a (as: [n]a) (offset: i64) (n1: i64) (s1: i64) (n2: i64) (s2: i64) (n3: i64) (s3: i64)
    : [n1][n2][n3]a =
    __intrinsic "flat_index"
  def flat_update_3d [n] [k] [l] [p] 'a (as: *[n]a) (offset: i64) (s1: i64) (s2: i64) (s3: i64) (vs: [k][l][p]a)
    : *[n]a =
    __intrinsic "flat_update"
  def flat_index_4d [n] 'a (as: [n]a) (offset: i64) (n1: i64) (s1: i64) (n2: i64) (s2: i64) (n3: i64) (s3: i64)
                    (n4: i64) (s4: i64) : [n1][n2][n3][n4]a =
    __intrinsic "flat_index"
  def flat_update_4d [n] [k] [l] [p] [q] 'a (as: *[n]a) (offset: i64) (s1: i64) (s2: i64) (s3: i64) (s4: i64)
                     (vs: [k][l][p][q]a) : *[n]a =
    __intrinsic "flat_update"
}
