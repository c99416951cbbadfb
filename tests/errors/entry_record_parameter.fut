-- ==
-- error: 4:13: error: .*entry point 'main': parameter type

entry main (r: {x: i32}) = r.x
