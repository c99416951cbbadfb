-- Sum types at entry points: opaque values of the C API (futhark_opaque_shape
-- here, with free, store and restore), which FutharkScript passes from
-- one entry point to another; on an executable's standard input and
-- output a sum is its components, in the order the compiler represents
-- it: the tag (the constructors sorted by name: #circle is 0, #rect 1),
-- then every constructor's payload.
-- ==
-- entry: area
-- script input { make 2.0f64 3.0f64 }
-- output { 6f64 }
-- script input { grow 2.0f64 (make 1.0f64 1.0f64) }
-- output { 12f64 }
-- input { 0u8 2.0f64 0f64 0f64 }
-- output { 12f64 }
-- input { 1u8 0f64 1.0f64 3.0f64 }
-- output { 3f64 }
-- ==
-- entry: make
-- input { 2.0f64 3.0f64 }
-- output { 1u8 0f64 2f64 3f64 }
-- ==
-- entry: areas
-- input { [0u8, 1u8] [2.0f64, 0f64] [0f64, 1f64] [0f64, 5f64] }
-- output { [12f64, 5f64] }

type shape = #circle f64 | #rect f64 f64

entry area (s: shape) : f64 =
  match s
  case #circle r -> 3 * r * r
  case #rect w h -> w * h

entry grow (k: f64) (s: shape) : shape =
  match s
  case #circle r -> #circle (k * r)
  case #rect w h -> #rect (k * w) (k * h)

entry make (w: f64) (h: f64) : shape = if w == h then #circle w else #rect w h

entry areas (ss: []shape) : []f64 = map area ss
