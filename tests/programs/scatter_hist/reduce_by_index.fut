-- reduce_by_index adding into an existing array.
-- ==
-- input { [10, 20, 30] [0i64, 2i64, 2i64, 5i64, -3i64, 1i64] [1, 2, 3, 4, 5, 6] }
-- output { [11, 26, 35] }

def main [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32) : []i32 = reduce_by_index dest (+) 0 is vs
