-- ==
-- error: 6:3: error: Duplicate specification of value "x", previously specified at 5:3

module type t = {
  val x : i32
  val x : bool
}

def main (x: i32) = x
