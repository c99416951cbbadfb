-- The built-in numeric modules match the prelude's module types, also
-- when sealed by them.
-- ==
-- input { 7 2 } output { 9 3 1 true 2.5f32 }

module int : integral with t = i32 = i32
module num : numeric with t = i32 = i32
module flt : real with t = f32 = f32

def main (a: i32) (b: i32) : (i32, i32, i32, bool, f32) =
  (int.(a + b), num.(a / b), a int.% b, num.(a > b), flt.(i32 a / i32 b - 1))
