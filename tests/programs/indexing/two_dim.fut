-- Indexing a matrix with a[i,j] and a[i][j].
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 2i64 }
-- output { 6 6 [4, 5, 6] }
-- input { [[1, 2, 3], [4, 5, 6]] 0i64 0i64 }
-- output { 1 1 [1, 2, 3] }

def main (a: [][]i32) (i: i64) (j: i64) : (i32, i32, []i32) = (a[i, j], a[i][j], a[i])
