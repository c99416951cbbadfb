-- A polymorphic higher-order function.
-- ==
-- input { 3 -4 }
-- output { 3.0f32 -4.0f32 true false }

def map_pair 'a 'b (f: a -> b) (x: a, y: a) : (b, b) = (f x, f y)

def main (a: i32) (b: i32) : (f32, f32, bool, bool) =
  let (p, q) = map_pair f32.i32 (a, b)
  let (r, s) = map_pair (\v -> v > 0) (a, b)
  in (p, q, r, s)
