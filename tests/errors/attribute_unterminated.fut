-- An attribute's bracket must close on its line.
-- ==
-- error: 5:21: error: unterminated attribute

def main (x: i32) = #[unroll x + 1
