-- A map whose body reduces a slice it computes the bounds of (the rows of
-- a CSR matrix) is an irregular segmented SegRed: a few lanes of a
-- work-group reduce each row (all of a group's lanes for the three long
-- rows, 4 each for the 5000 short ones). The operator hashes a row in
-- order (associative, not commutative), so a lane that combined its
-- values out of order would change the result. Rows of length 0 give
-- the neutral element's hash 0.
-- ==
-- structure gpu { SegRed 1 }
-- input { 6i64 4i64 }
-- output { [14117367i64, 9496407i64, 138989i64, 0i64, 17854923470i64, 289149518i64] }
-- input { 0i64 4i64 }
-- output { empty([0]i64) }
-- input { 3i64 100000i64 }
-- output @ data/segred_irregular_3.out
-- input { 5000i64 300i64 }
-- output @ data/segred_irregular_5000.out

def hash_step (h1: i64, p1: i64) (h2: i64, p2: i64) : (i64, i64) = (h1 * p2 + h2, p1 * p2)

def main (n: i64) (maxlen: i64) : [n]i64 =
  let lens = map (\i -> (i * 7919 + 13) % (maxlen + 1)) (iota n)
  let offs = scan (+) 0 lens
  let total = if n == 0 then 0 else offs[n - 1]
  let vals = map (\j -> (j * 2654435761) % 1000003) (iota total)
  in map2 (\o l -> (reduce hash_step (0, 1) (map (\v -> (v, 31)) vals[o - l:o])).0) offs lens
