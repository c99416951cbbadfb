-- reduce_comm with a commutative operator.
-- ==
-- input { [1u32, 2u32, 4u32, 7u32] }
-- output { 14u32 0u32 }

def main (xs: []u32) : (u32, u32) = (reduce_comm (+) 0 xs, reduce_comm (^) 0 xs)
