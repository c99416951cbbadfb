-- Sealing hides what the module type does not specify.
-- ==
-- error: 10:21: error: Unknown name "m.helper"

module m : {val f : i32 -> i32} = {
  def helper (x: i32) = x + 1
  def f (x: i32) = helper x
}

def main (x: i32) = m.helper x
