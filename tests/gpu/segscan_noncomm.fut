-- A map of a scan whose operator does not commute (composition of affine
-- maps x -> a*x + b on i64: two values of two status words each) is one
-- segmented SegScan over all n*m elements. The cases put segment starts
-- everywhere relative to a work-item's elements and a group's chunk: one
-- row and three rows spanning many groups, 100000 rows of 3 elements,
-- rows of 4099, rows of one element, no rows and empty rows. Read at
-- positions on both sides of group boundaries, and a weighted checksum of
-- every element; expected values from a sequential reference (Python).
-- ==
-- structure gpu { SegScan 1 }
-- input { 1i64 100000i64 }
-- output { [1i64, 3i64, 15i64, 15i64, 5254230734727078223i64, 1i64, 4501397543085671247i64, -4942551444452537875i64, 759330166466991907i64, 3796650832334959535i64, 2981945651265332783i64, 5254230734727078223i64]
--          [-50i64, -169i64, -833i64, -790i64, -3671126241518632270i64, -50i64, -5065689180391727582i64, 3249676532534368839i64, 8526996445890015015i64, 5741494082030971831i64, 7405151423402532463i64, -3671126241518632270i64]
--          5391758471813241797i64 }
-- input { 3i64 100000i64 }
-- output { [1i64, 3i64, 15i64, 15i64, 5254230734727078223i64, 3i64, 4501397543085671247i64, -4942551444452537875i64, 759330166466991907i64, 3796650832334959535i64, 2981945651265332783i64, 7824409599925839499i64]
--          [-50i64, -169i64, -833i64, -790i64, -3671126241518632270i64, -43i64, -5065689180391727582i64, 3249676532534368839i64, 8526996445890015015i64, 5741494082030971831i64, 7405151423402532463i64, -8607827497760062169i64]
--          2507427896191514309i64 }
-- input { 100000i64 3i64 }
-- output { [1i64, 3i64, 15i64, 1i64, 15i64, 1i64, 1i64, 3i64, 3i64, 15i64, 1i64, 15i64]
--          [-50i64, -169i64, -833i64, 43i64, -833i64, 43i64, 39i64, 86i64, 38i64, 178i64, -44i64, -224i64]
--          2910864i64 }
-- input { 37i64 4099i64 }
-- output { [1i64, 3i64, 15i64, 15i64, -6266013148553137759i64, 3i64, 4501397543085671247i64, -4942551444452537875i64, -6478418120866686397i64, 4501397543085671247i64, 6568408355712890625i64, -6266013148553137759i64]
--          [-50i64, -169i64, -833i64, -790i64, -2198361411037707390i64, -39i64, -5065689180391727582i64, 3249676532534368839i64, -4815737851395665887i64, -5631945183268777831i64, 2473764466127969016i64, 4757687096892846283i64]
--          -3131381746398406632i64 }
-- input { 1000i64 1i64 }
-- output { [1i64, 3i64, 5i64, 1i64, 1i64, 3i64, 5i64, 1i64, 5i64, 1i64, 1i64, 1i64]
--          [-50i64, -19i64, 12i64, 43i64, -50i64, -19i64, -34i64, -3i64, 13i64, 44i64, 40i64, 13i64]
--          -38166i64 }
-- input { 1i64 1i64 }
-- output { [1i64, 1i64, 1i64, 1i64, 1i64, 1i64, 1i64, 1i64, 1i64, 1i64, 1i64, 1i64]
--          [-50i64, -50i64, -50i64, -50i64, -50i64, -50i64, -50i64, -50i64, -50i64, -50i64, -50i64, -50i64]
--          -49i64 }
-- input { 0i64 5i64 }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64]
--          [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64]
--          0i64 }
-- input { 5i64 0i64 }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64]
--          [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64]
--          0i64 }

-- x -> a*x + b, then x -> c*x + d.
def compose (a: i64, b: i64) (c: i64, d: i64) : (i64, i64) = (a * c, c * b + d)

def elem (i: i64) : (i64, i64) = (2 * (i % 3) + 1, (i * 31) % 101 - 50)

def main (n: i64) (m: i64) : ([12]i64, [12]i64, i64) =
  let (as, bs) = unzip (map (\r -> unzip (scan compose (1, 0) (map (\j -> elem (r * m + j)) (iota m)))) (iota n))
  let fa = flatten as
  let fb = flatten bs
  let N = n * m
  let at (xs: [N]i64) : [12]i64 =
    map (\p -> if N == 0 then 0 else xs[p % N]) [0, 1, 2, 3, m - 1, m, 4095, 4096, 8191, 8192, 12345, N - 1]
  in (at fa, at fb, reduce (+) 0 (map3 (\a b i -> b * (i % 1000 + 1) + a) fa fb (iota N)))
