-- A literal whose inferred type cannot hold it is an error, as in
-- Futhark; a negated literal is in bounds when its negation is.
-- ==
-- error: Literal 128 out of bounds for inferred type i8

def ok : (i8, u8, i64, f32) = (-128, 255, -9223372036854775808, 3.4e38)
def bad : i8 = 128
