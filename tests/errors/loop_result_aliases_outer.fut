-- The loop consumes arr, so the value it returns for arr must not be an
-- array bound outside the loop.
-- ==
-- error: 9:13: error: Return value for consuming loop parameter "arr" aliases "barr"

def main (n: i64) : i64 =
  let arr = iota n
  let barr = map (+1) (iota n)
  let arr = loop arr for i < n do let arr[i] = 0 in barr
  in barr[1] + arr[0]
