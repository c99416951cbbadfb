-- ==
-- error: 4:16: error: Unknown size "k"

def main (xs: [k]i32) = xs
