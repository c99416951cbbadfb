-- ==
-- error: 4:38: error: .*cannot unify bool with i32

def main (n: i32) = loop i = 0 while i + n do i + 1
