-- ==
-- error: 6:1: error: Module does not define a value named "dec"

module type counter = {val inc : i32 -> i32 val dec : i32 -> i32}

module c : counter = {
  def inc (x: i32) = x + 1
}

def main (x: i32) = c.inc x
