-- A value used as a record with a field it lacks: the type inferred from
-- the uses (fields x and y) does not unify with the record given.
-- ==
-- error: Cannot unify record type with field "y" with type \{x: i64\}

def sameconst '^a (_: a) (y: a) = y

def main (x: i64) =
  let elems = sameconst (\s -> s.x < 0) (\s -> s.y > 0)
  in elems {x}
