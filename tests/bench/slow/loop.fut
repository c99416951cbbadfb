-- A dataset slow enough that -r 2 runs take more than 0.5 s together on
-- most machines, so the run count is exactly what -r asks for.
-- ==
-- "slow" input { 150000000i64 }

def main (n: i64) : i64 =
  loop acc = 1 for i < n do (acc * 6364136223846793005 + i) ^ (acc >> 29)
