-- Insertion sort with nested loops and in-place updates.
-- ==
-- input { [5, 2, 9, 1, 5, 6, -3] }
-- output { [-3, 1, 2, 5, 5, 6, 9] }
-- input { [1] }
-- output { [1] }
-- input { [3, 2, 1] }
-- output { [1, 2, 3] }

def insertion_sort [n] (xs: [n]i32) : [n]i32 =
  loop a = copy xs for i in 1..<i64.max 1 n do
    let (a, _) =
      loop (a, j) = (a, i) while j > 0 && a[j - 1] > a[j] do
        let tmp = a[j]
        let a[j] = a[j - 1]
        let a[j - 1] = tmp
        in (a, j - 1)
    in a

def main (xs: []i32) : []i32 = insertion_sort xs
