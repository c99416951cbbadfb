-- Masked reductions: a reduction whose map gives the operator's neutral element past a bound on an index from iota
-- (`if j <= i then a * x else 0`, a triangular matrix-vector product written with a mask) runs over the prefix
-- max(0, min(n, bound + 1)) of its inputs instead, with no if left: it reads only the triangle. Also j < b, b >= j,
-- bounds below 0 and past n (c - 2 and c + 3 for c < n).
-- ==
-- structure { If 0 }
-- entry: lower
-- input { [[1i32, 9i32, 9i32], [2i32, 3i32, 9i32], [4i32, 5i32, 6i32]] [1i32, 2i32, -1i32] }
-- output { [1i32, 8i32, 8i32] }
-- input { empty([0][0]i32) empty([0]i32) }
-- output { empty([0]i32) }
-- entry: shifted
-- input { [10i32, 20i32, 30i32, 40i32] }
-- output { [0i32, 0i32, 10i32, 30i32] [100i32, 100i32, 100i32, 100i32] [30i32, 60i32, 100i32, 100i32] }

entry lower [n] (a: [n][n]i32) (x: [n]i32) : [n]i32 =
  map2 (\i row -> reduce (+) 0 (map3 (\j aij xj -> if j <= i then aij * xj else 0) (iota n) row x)) (iota n) a

entry shifted [n] (xs: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  unzip3 (map (\c -> (i32.sum (map2 (\j x -> if j < c - 1 then x else 0) (iota n) xs),
                      i32.sum (map2 (\j x -> if c + 3 >= j then x else 0) (iota n) xs),
                      reduce (+) 0 (map2 (\j x -> if c + 2 > j then x else 0) (iota n) xs)))
              (iota n))
