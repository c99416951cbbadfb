-- A module whose abstract type hides a sum type, and a parametric module
-- over a sum type given by its argument.
-- ==
-- input { 5 } output { 5 0 2 }

module type stack = {
  type t
  val empty : t
  val push : i32 -> t -> t
  val top : t -> i32
}

module one : stack = {
  type t = #empty | #one i32
  def empty : t = #empty
  def push (x: i32) (_: t) : t = #one x
  def top (s: t) : i32 = match s case #one x -> x case #empty -> 0
}

module count (P: { type e val tag : e -> i32 }) = {
  def total (xs: []P.e) : i32 = i32.sum (map P.tag xs)
}

module dirs = count { type e = #left | #right def tag (d: e) : i32 = match d case #left -> 0 case #right -> 1 }

entry main (x: i32) : (i32, i32, i32) =
  (one.top (one.push x one.empty), one.top one.empty, dirs.total [#right, #left, #right])
