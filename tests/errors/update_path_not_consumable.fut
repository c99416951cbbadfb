-- An update path that indexes writes in place: its array must be
-- consumable, as for any in-place update.
-- ==
-- error: not consumable|[Cc]onsum

def main (xs: []{f: i32}) : i32 =
  let ys = xs with [0].f = 1
  in ys[0].f
