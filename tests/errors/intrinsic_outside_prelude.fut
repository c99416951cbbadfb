-- ==
-- error: 4:32: error: __intrinsic may only be used in the prelude

def main (xs: []i32) : []i32 = __intrinsic "map"
