-- ==
-- error: 6:31: error: Variable "xs" is consumed by this call or one of its arguments, but another argument uses

def f (a: []i32) (b: []i32) : i32 = a[0] + b[0]

def main (xs: *[]i32) : i32 = f xs (xs with [0] = 1)
