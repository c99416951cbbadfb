-- The result type of a parametric module is checked where it is
-- defined, even if it is never applied.
-- ==
-- error: 6:1: error: Module does not define a value named "y"

module f (P: {val x : i32}) : {val y : i32} = {
  def z = P.x
}

def main (x: i32) = x
