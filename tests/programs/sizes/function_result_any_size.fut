-- The anonymous size in the result type of a function parameter is the size
-- of whatever the function returns (iota's, which depends on its argument),
-- not a size parameter of concat_results.
-- ==
-- input { [1i64, 2i64, 3i64] }
-- output { [0i64, 0i64, 1i64, 0i64, 1i64, 2i64] }

def concat_results [n] 'a 'b (f: a -> []b) (as: [n]a) : []b =
  loop acc = [] for a in as do acc ++ f a

def main (xs: []i64) = concat_results iota xs
