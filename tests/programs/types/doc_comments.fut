-- Documentation comments before declarations.
-- ==
-- input { 21 }
-- output { 42 }

-- | A constant with documentation.
def two : i32 = 2

-- | Double a number.
--
-- More text here.
def double (x: i32) : i32 = x * two

-- | The entry point.
def main (x: i32) : i32 = double x
