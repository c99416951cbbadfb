-- Later let bindings shadow earlier ones.
-- ==
-- input { 4 }
-- output { 111 }
-- input { -1 }
-- output { 101 }

def main (x: i32) : i32 =
  let x = x + 1
  let x = x * 2
  let y = let x = 100 in x + 1
  in x + y
