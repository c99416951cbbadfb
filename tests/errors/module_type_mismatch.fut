-- ==
-- error: 4:1: error: Module defines type inner.t = i32, but module type requires type inner.t = bool

module m : {module inner : {type t = bool}} = {
  module inner = {type t = i32}
}

def main (x: i32) = x
