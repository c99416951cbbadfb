-- Parametric modules over the prelude's module types, applied to the
-- built-in numeric modules.
-- ==
-- input { [3f32, 4f32] [3.0f64, 4.0f64] [200u8, 100u8] [7, 9] }
-- output { 5f32 5.0f64 44u8 16 2 }

module norms (R: real) = {
  def norm [n] (xs: [n]R.t) : R.t = R.sqrt (R.sum (map (\x -> x R.* x) xs))
}

module sums (I: integral) = {
  def total [n] (xs: [n]I.t) : I.t = reduce (I.+) (I.i32 0) xs
  def high_bit (x: I.t) : i32 = I.num_bits - I.clz x
}

module n32 = norms f32
module n64 = norms f64
module s8 = sums u8
module s32 = sums i32

def main (a: []f32) (b: []f64) (c: []u8) (d: []i32) : (f32, f64, u8, i32, i32) =
  (n32.norm a, n64.norm b, s8.total c, s32.total d, s32.high_bit 2)
