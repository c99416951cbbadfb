-- A loop parameter initialised from the variable of the same name.
-- ==
-- input { 2 3 }
-- output { 54 }
-- input { 5 0 }
-- output { 5 }

def main (x: i32) (n: i32) : i32 =
  loop x for _i < n do x * 3
