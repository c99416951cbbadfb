-- A parametric module of two parameters, applied in two steps; the
-- partial application is used twice.
-- ==
-- input { 10 } output { 13 15 }

module combine (A: {val x : i32}) (B: {val y : i32}) = {
  def total (z: i32) = A.x + B.y + z
}

module with_one = combine {def x = 1i32}
module p = with_one {def y = 2i32}
module q = with_one {def y = 4i32}

def main (z: i32) : (i32, i32) = (p.total z, q.total z)
