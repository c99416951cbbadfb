-- The result of a top-level function aliases its arguments, not the
-- function: flattening a unique parameter and scattering into it is fine.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [9, 2, 3, 4] }

def main [n] [m] (d: *[n][m]i32) : *[]i32 = scatter (flatten d) [0] [9]
