-- A record value must have exactly the fields of its type: the error
-- names the fields that only one of them has.
-- ==
-- error: 6:16: error: Couldn't match expected type \{a: i32, b: i32\} with actual type \{a: i32, c: i32\}: unshared fields: b, c.

def main = let r: {a: i32, b: i32} = {a = 0, c = 1} in r.a
