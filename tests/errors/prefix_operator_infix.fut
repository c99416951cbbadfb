-- "!" is a prefix operator; it cannot be defined as an infix one.
-- ==
-- error: 5:7: error: "!" is a prefix operator: it cannot be used as infix

def x ! y = x + y

def main = 1 ! 2
