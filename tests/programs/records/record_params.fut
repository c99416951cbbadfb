-- Record patterns as function parameters, and field punning.
-- ==
-- input { 3 -4 }
-- output { 10 }
-- input { -1 0 }
-- output { 2 }

def norm1 ({x, y}: {x: i32, y: i32}) : i32 = i32.abs x + i32.abs y

def mk (x: i32) (y: i32) = {x, y}

def main (a: i32) (b: i32) : i32 = norm1 (mk a b) + norm1 {y = a, x = 0}
