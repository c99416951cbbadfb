-- Reduction inside a map.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [6, 15] }

def main (a: [][]i32) : []i32 = map (reduce (+) 0) a
