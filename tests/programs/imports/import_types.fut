-- Imported type abbreviations and record types.
-- ==
-- input { 0.0f64 0.0f64 3.0f64 4.0f64 }
-- output { 5.0f64 }

import "lib/util"

def main (x1: f64) (y1: f64) (x2: f64) (y2: f64) : f64 =
  let p : point = {x = x1, y = y1}
  let q : point = {x = x2, y = y2}
  in dist p q
