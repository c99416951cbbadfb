-- let with record patterns, both punned and renamed.
-- ==
-- input { 1 2 }
-- output { 12 21 }

type point = {x: i32, y: i32}

def main (a: i32) (b: i32) : (i32, i32) =
  let p : point = {x = a, y = b}
  let {x, y} = p
  let {x = u, y = v} = {x = y, y = x}
  in (x * 10 + y, u * 10 + v)
