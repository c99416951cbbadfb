-- A reduction with an associative, non-commutative operator on arrays that
-- does not work element by element (2x2 matrix products): the operator
-- cannot update its accumulator in place.
-- ==
-- input { [[1, 2, 3, 4], [0, 1, 1, 0], [2, 0, 1, 1], [1, 1, 0, 1], [3, -1, 2, 0]] }
-- output { [27, -5, 61, -11] }

def mul (a: [4]i32) (b: [4]i32) : [4]i32 =
  [a[0]*b[0] + a[1]*b[2], a[0]*b[1] + a[1]*b[3], a[2]*b[0] + a[3]*b[2], a[2]*b[1] + a[3]*b[3]]

def main [n] (ms: [n][4]i32) : [4]i32 = reduce mul [1, 0, 0, 1] ms
