-- A slice whose stride is not a constant is not supported yet: a clear
-- error at the slice (under the sanitizers, also without a leak: the
-- lowering is abandoned in the middle of the index).
-- ==
-- error: slice_stride_not_constant\.fut:7:35: .*non-constant stride

entry main (xs: []i32) (s: i64) = xs[1::s]
