-- Vector helpers; imports util.fut from the same directory.

import "util"

def sum_squares [n] (xs: [n]i32) : i32 = sum (map square xs)

def dot [n] (xs: [n]f32) (ys: [n]f32) : f32 = f32.sum (map2 (*) xs ys)
