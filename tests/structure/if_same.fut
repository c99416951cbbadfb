-- Both branches return x: the if disappears; c ? 1 : 0 becomes a conversion.
-- ==
-- structure { If 0 Conv 1 }
-- input { true 5 }
-- output { 5 1 }
-- input { false 6 }
-- output { 6 0 }

def main (c: bool) (x: i32) : (i32, i32) =
  (if c then x else x, if c then 1 else 0)
