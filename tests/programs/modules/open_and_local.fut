-- open of a parametric module's application, local open of a structure,
-- local modules, and a module alias.
-- ==
-- input { 5 } output { 16 6 8 }

module mk (C: {val c : i32}) = {
  def add_c (x: i32) = x + C.c
}

open (mk {def c = 10i32})

local module helpers = {
  def one = 1i32
}

local open helpers

module alias = helpers

def main (x: i32) : (i32, i32, i32) = (add_c (x + one), x + alias.one, helpers.(one + 2) + x)
