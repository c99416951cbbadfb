-- A constructor whose sum type nothing determines is ambiguous.
-- ==
-- error: 6:29: error: Type is ambiguous: cannot infer the sum type with constructors #foo \| #bar \| \.\.\.; add a type annotation\.

def f (b: bool) : i32 =
  match if b then #foo else #bar
  case #foo -> 1
  case #bar -> 2
