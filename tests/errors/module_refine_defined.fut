-- ==
-- error: 6:21: error: "t" is not an abstract type in the module type

module type has_t = {type t}
module type has_i64 = has_t with t = i64
module type again = has_i64 with t = i64

def main (x: i32) = x
