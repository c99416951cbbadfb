-- Input from a data file next to the program.
-- ==
-- input @ data/three.in output { 6.0f64 }

def main (xs: []f64) : f64 = f64.sum xs
