-- Every member of Futhark's `float` module type beyond `real`: a float's
-- bits, epsilon, nextafter, ldexp, copysign, and fma rounding once
-- (0.1 * 10 - 1 is not 0), all compared as bits. Expected outputs: expected.py.
-- ==
-- entry: f32s
-- input { 1.5f32 -2.0f32 }
-- output { [1069547520u32, 1094713344u32, 0u32, 3217031168u32, 1069547521u32, 872415232u32, 847249408u32, 1065353217u32, 3217031168u32, 1069547528u32] [32i32, 0i32, 0i32, 0i32] 1.5f32 }
-- entry: f32s
-- input { -0.10000000149011612f32 3.0f32 }
-- output { [3184315597u32, 3209481421u32, 2147483648u32, 1036831949u32, 3184315596u32, 872415232u32, 847249408u32, 1065353217u32, 1036831949u32, 3184315589u32] [32i32, 1i32, 0i32, 0i32] -0.10000000149011612f32 }
-- entry: f64s
-- input { 1.5f64 -2.0f64 }
-- output { [4609434218613702656u64, 4622945017495814144u64, 0u64, 13832806255468478464u64, 4609434218613702657u64, 4372995238176751616u64, 4363988038922010624u64, 4607182418800017409u64, 13832806255468478464u64, 4609434218613702664u64] [64i32, 0i32, 0i32, 0i32] 1.5f64 }
-- entry: f64s
-- input { -0.1f64 3.0f64 }
-- output { [13815242216921733530u64, 13828753015803845018u64, 9223372036854775808u64, 4591870180066957722u64, 13815242216921733529u64, 4372995238176751616u64, 4363988038922010624u64, 4607182418800017409u64, 4591870180066957722u64, 13815242216921733522u64] [64i32, 1i32, 0i32, 0i32] -0.1f64 }

module T (X: float) = {
  def bits (x: X.t) (y: X.t) : []X.int_t =
    let one = X.i32 1
    in map X.to_bits
           [x, X.ldexp x 3, X.ldexp x (-2000), X.copysign x y, X.nextafter x X.inf, X.epsilon,
            X.fma (X.f64 0.1) (X.i32 10) (X.i32 (-1)), X.set_bit 0 one 1, X.neg x,
            X.set_bit 3 x (1 - X.get_bit 3 x)]
  def getb (x: X.t) : []i32 =
    [X.num_bits, X.get_bit (X.num_bits - 1) x, X.get_bit (X.num_bits - 2) x, X.get_bit (X.num_bits - 2) (X.i32 1)]
  def all x y = (bits x y, getb x, X.from_bits (X.to_bits x))
}

module Tf32 = T f32
module Tf64 = T f64

entry f32s (x: f32) (y: f32) = Tf32.all x y
entry f64s (x: f64) (y: f64) = Tf64.all x y
