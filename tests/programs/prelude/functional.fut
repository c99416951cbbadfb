-- The functions of Futhark's functional.fut and prelude.fut: the pipe and
-- composition operators, flip, curry, uncurry, const, id, iterate,
-- iterate_until, iterate_while, not, r32, t32, r64, t64, and opaque, trace
-- and break (identities in compiled code).
-- ==
-- input { 5i32 }
-- output { 12i32 12i32 12i32 7i32 -5i32 -5i32 -5i32 7i32 5i32 40i32 128i32 81i32 5i32 [false, true] 5.0f32 -3i32 5.0f64 -2i32 5i32 6i32 7i32 }

def main (x: i32) =
  ( x |> (+ 7)
  , (+ 7) <| x
  , ((* 2) >-> (+ 2)) x
  , ((+ 1) <-< (* 2) <-< (+ 1)) (x / 2)
  , flip (-) x 0
  , curry (\(a, b) -> a - b) 0 x
  , uncurry (-) (0, x)
  , const 7i32 true
  , id x
  , iterate 3 (* 2) x
  , iterate_until (> 100) (* 2) 1
  , iterate_while (< 50) (* 3) 1
  , iterate 0 (* 2) x
  , map not [true, false]
  , r32 x
  , t32 (-3.9)
  , r64 x
  , t64 (-2.5)
  , opaque x
  , trace (x + 1)
  , break (x + 2)
  )
