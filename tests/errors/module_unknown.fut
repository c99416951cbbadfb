-- ==
-- error: 4:12: error: Unknown module "vectors"

module v = vectors

def main (x: i32) = x
