-- A simple conditional.
-- ==
-- input { 5 }
-- output { 5 }
-- input { -5 }
-- output { 5 }
-- input { 0 }
-- output { 0 }

def main (x: i32) : i32 = if x > 0 then x else -x
