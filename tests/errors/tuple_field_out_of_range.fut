-- ==
-- error: 4:28: error: .*has no field '2'

def main (p: (i32, i32)) = p.2
