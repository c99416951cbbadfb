-- Value specifications whose sizes refer to earlier specifications, and a
-- parametric module using them.
-- ==
-- input { 2 } output { [2, 3, 4] 9 }

module type table = {
  val n : i64
  val row : [n]i32
}

module mk_sum (T: table) = {
  def shifted (k: i32) : [T.n]i32 = map (+ k) T.row
  def total = i32.sum T.row
}

module three = mk_sum { def n = 3i64 def row : [n]i32 = [0, 1, 2] }

def main (k: i32) : ([]i32, i32) = (three.shifted k, three.total + 6)
