-- A parametric module applying another twice, nested 25 deep: 2^25
-- applications, more than the checker allows.
-- ==
-- error: 20:1: error: Parametric modules are applied more than 20000 times

module type S = { val x : i32 }
module F0 (P: S) = { def x = P.x + 1 }
module F1 (P: S) = { module A = F0 P module B = F0 P def x = A.x + B.x }
module F2 (P: S) = { module A = F1 P module B = F1 P def x = A.x + B.x }
module F3 (P: S) = { module A = F2 P module B = F2 P def x = A.x + B.x }
module F4 (P: S) = { module A = F3 P module B = F3 P def x = A.x + B.x }
module F5 (P: S) = { module A = F4 P module B = F4 P def x = A.x + B.x }
module F6 (P: S) = { module A = F5 P module B = F5 P def x = A.x + B.x }
module F7 (P: S) = { module A = F6 P module B = F6 P def x = A.x + B.x }
module F8 (P: S) = { module A = F7 P module B = F7 P def x = A.x + B.x }
module F9 (P: S) = { module A = F8 P module B = F8 P def x = A.x + B.x }
module F10 (P: S) = { module A = F9 P module B = F9 P def x = A.x + B.x }
module F11 (P: S) = { module A = F10 P module B = F10 P def x = A.x + B.x }
module F12 (P: S) = { module A = F11 P module B = F11 P def x = A.x + B.x }
module F13 (P: S) = { module A = F12 P module B = F12 P def x = A.x + B.x }
module F14 (P: S) = { module A = F13 P module B = F13 P def x = A.x + B.x }
module F15 (P: S) = { module A = F14 P module B = F14 P def x = A.x + B.x }
module F16 (P: S) = { module A = F15 P module B = F15 P def x = A.x + B.x }
module F17 (P: S) = { module A = F16 P module B = F16 P def x = A.x + B.x }
module F18 (P: S) = { module A = F17 P module B = F17 P def x = A.x + B.x }
module F19 (P: S) = { module A = F18 P module B = F18 P def x = A.x + B.x }
module F20 (P: S) = { module A = F19 P module B = F19 P def x = A.x + B.x }
module F21 (P: S) = { module A = F20 P module B = F20 P def x = A.x + B.x }
module F22 (P: S) = { module A = F21 P module B = F21 P def x = A.x + B.x }
module F23 (P: S) = { module A = F22 P module B = F22 P def x = A.x + B.x }
module F24 (P: S) = { module A = F23 P module B = F23 P def x = A.x + B.x }
module F25 (P: S) = { module A = F24 P module B = F24 P def x = A.x + B.x }
module M = F25 { def x = 1i32 }
def main = M.x
