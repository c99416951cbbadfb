-- ==
-- error: 4:1: error: Module type specifies val pair 'a 'b : a -> b -> .a, b., but module provides

module pairs : {val pair 'a 'b : a -> b -> (a, b)} = {
  def pair 'a (x: a) (y: a) = (x, y)
}

def main (x: i32) = x
