-- Boolean literals.
-- ==
-- input {  }
-- output { true false [true, false, true] }

def main : (bool, bool, [3]bool) = (true, false, [true, false, true])
