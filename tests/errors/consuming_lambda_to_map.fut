-- map expects a function that does not consume its argument.
-- ==
-- error: 6:8: error: Cannot apply "map" to .*parameters a and \*\[\]f64 are incompatible regarding consuming

def main (a: *[][]f64) : [][]f64 =
  map (\(r: *[]f64) : *[]f64 -> r) a
