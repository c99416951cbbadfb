-- An attribute in a let binding stands before a pattern, which is required.
-- ==
-- error: 6:12: error: Unexpected "=", expected pattern or attribute

def main (x: i32) =
  let #[a] = x in x
