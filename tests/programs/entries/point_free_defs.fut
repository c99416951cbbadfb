-- Definitions without parameters whose value is a function (partial
-- applications and compositions of other definitions) are called like
-- any function, also through other such definitions.
-- ==
-- input { [1, 2, 3] }
-- output { [12, 13, 14] 39 }

def add (a: i32) (b: i32) = a + b
def add10 = add 10
def add11 = add10 >-> add 1
def add_all = map add11
def total = add_all >-> i32.sum

entry main (xs: []i32) = (add_all xs, total xs)
