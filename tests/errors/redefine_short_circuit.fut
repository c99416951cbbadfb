-- && and || short-circuit: they cannot be redefined.
-- ==
-- error: 5:1: error: The short-circuiting operator && cannot be redefined.

def (&&) (x: bool) (y: bool) = x

def main (x: bool) = x && x
