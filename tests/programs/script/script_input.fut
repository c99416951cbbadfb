-- Cases whose input is a FutharkScript expression, evaluated with the
-- program's entry points in server mode (futhorc-script(1)); its value's
-- components are the arguments of the entry tested. Literals take the
-- types of the parameters they are given to; a tuple is uncurried.
-- ==
-- entry: total
-- script input { mkdata 100i64 } output { 5050f32 }
-- script input { let n = 10 in mkdata n } output { 55f32 }
-- "from a file" script input @ data/script_input.futharkscript output { 6f32 }
-- script input { (3, $loaddata "data/three.in") } output { 6f32 }
-- script input { let (n, xs) = mkdata 4 in (n, xs) } output { 10f32 }
-- script input { mkdata (-1) } error: Range 0..1..<-1 is invalid

-- ==
-- entry: count
-- script input { flags 5 } output { 5i64 }
-- script input { $loadbytes "data/three.in" } error: count takes 2 arguments, but 1 was given

entry mkdata (n: i64) : (i64, []f32) = (n, map (f32.i64 <-< (+ 1)) (iota n))

entry total (n: i64) (xs: []f32) : f32 = f32.sum xs + assert (n >= 0) 0

entry flags (n: i64) : {on: [n]bool, extra: i64} = {on = replicate n true, extra = 0}

entry count [m] (r: {on: [m]bool, extra: i64}) : i64 = r.extra + i64.sum (map i64.bool r.on)
