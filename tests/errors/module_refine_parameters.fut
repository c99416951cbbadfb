-- ==
-- error: 5:22: error: Cannot refine a type having type parameters 'a with a type having no type parameters

module type has_t = {type t}
module type has_t' = has_t with t 'a = [2]a

def main (x: i32) = x
