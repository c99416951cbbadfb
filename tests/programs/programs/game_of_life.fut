-- Conway's Game of Life on a torus, run for a number of generations.
-- ==
-- input { [[false, true, false, false, false, false], [false, false, true, false, false, false],
--    [true, true, true, false, false, false], [false, false, false, false, false, false], [false,
--    false, false, false, false, false]] 0 }
-- output { [[false, true, false, false, false, false], [false, false, true, false, false, false],
--    [true, true, true, false, false, false], [false, false, false, false, false, false], [false,
--    false, false, false, false, false]] }
-- input { [[false, true, false, false, false, false], [false, false, true, false, false, false],
--    [true, true, true, false, false, false], [false, false, false, false, false, false], [false,
--    false, false, false, false, false]] 1 }
-- output { [[false, false, false, false, false, false], [true, false, true, false, false, false],
--    [false, true, true, false, false, false], [false, true, false, false, false, false], [false,
--    false, false, false, false, false]] }
-- input { [[false, true, false, false, false, false], [false, false, true, false, false, false],
--    [true, true, true, false, false, false], [false, false, false, false, false, false], [false,
--    false, false, false, false, false]] 4 }
-- output { [[false, false, false, false, false, false], [false, false, true, false, false, false],
--    [false, false, false, true, false, false], [false, true, true, true, false, false], [false,
--    false, false, false, false, false]] }

def step [n] [m] (g: [n][m]bool) : [n][m]bool =
  tabulate_2d n m (\i j ->
    let alive (di: i64) (dj: i64) = i32.bool g[(i + di) % n, (j + dj) % m]
    let s = alive (-1) (-1) + alive (-1) 0 + alive (-1) 1
          + alive 0 (-1) + alive 0 1
          + alive 1 (-1) + alive 1 0 + alive 1 1
    in s == 3 || (s == 2 && g[i, j]))

def main [n] [m] (g: [n][m]bool) (gens: i32) : [n][m]bool =
  loop g for _i < gens do step g
