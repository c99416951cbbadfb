-- ==
-- error: 4:1: error: Module does not define a type named "t"

module m : {type t val x : i32} = {
  def x = 1i32
}

def main (x: i32) = x
