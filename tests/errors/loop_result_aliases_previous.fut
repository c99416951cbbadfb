-- The value returned for the consumed arr aliases the one returned for acc.
-- ==
-- error: 6:3: error: Return value for consuming loop parameter "arr" aliases previously returned value

def main (n: i64) : ([]i64, [][]i64) =
  loop (acc, arr) = (iota n, replicate n (iota n)) for i < n do
    let arr[i] = acc
    in (arr[i], arr)
