-- ==
-- error: 5:3: error: All function parameters must have non-anonymous sizes. Hint: add size parameters to "sum"

module type summer = {
  val sum : []i32 -> i32
}

def main (x: i32) = x
