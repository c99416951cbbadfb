-- A function returning a function (a closure).
-- ==
-- input { [0, 5] }
-- output { [11, 16] }

def adder (k: i32) : i32 -> i32 = \x -> x + k

def compose (f: i32 -> i32) (g: i32 -> i32) : i32 -> i32 = \x -> f (g x)

def main (xs: []i32) : []i32 = map (compose (adder 1) (adder 10)) xs
