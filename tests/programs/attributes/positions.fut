-- Attributes may stand before declarations, expressions, loops, let
-- patterns, lambda and loop parameters; attributes the compiler does not
-- use change nothing in the result.
-- ==
-- input { 3 }
-- output { [17, 18] }
-- input { 0 }
-- output { [11, 12] }

#[noinline]
def inc (#[maxval(1337)] x: i32) = x + 1

#[inline] #[some_unknown_attribute(1, two, three(4))]
def twice (x: i32) = x * 2

entry main (x: i32) =
  let #[foo] y = #[unroll] loop (#[maxval(100)] acc: i32) = x for i < 5 do acc + 1
  let (#[a] p, #[b] q) = (y, #[inline] inc y)
  in #[incremental_flattening(only_inner)] #[sequential]
     map (\(#[unused] i) -> i + twice p - q) [1, 2] |> map (+ q)
