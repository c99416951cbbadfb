-- ==
-- error: 4:21: error: .*requires an integer type

def main (x: f32) = x & 1
