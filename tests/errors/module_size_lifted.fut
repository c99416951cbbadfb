-- A type~ of a parameter may stand for arrays of any size: a type
-- abbreviation holding it must be type~ too.
-- ==
-- error: 7:3: error: Non-size-lifted type abbreviations may not contain size-lifted types

module store (K: {type~ key}) = {
  type counted = {key: K.key, count: i64}
}

def main (x: i32) = x
