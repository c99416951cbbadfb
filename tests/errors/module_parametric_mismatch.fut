-- ==
-- error: 4:1: error: Cannot match parametric module with non-parametric module type

module m : {module inner : {val x : i32}} = {
  module inner (P: {val y : i32}) = {def x = P.y}
}

def main (x: i32) = x
