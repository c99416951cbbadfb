-- ==
-- error: 7:41: error: .*type parameter "b" would escape its scope.*scope-violation

-- A local function's type parameter cannot become the type of something
-- bound outside it (x belongs to f, and its type would have to be b).
def f x =
  let g 'b (y: b) = if true then y else x
  in g
