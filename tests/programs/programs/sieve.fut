-- Sieve of Eratosthenes with loops and scatter.
-- ==
-- input { 2i64 }
-- output { [2i64] }
-- input { 30i64 }
-- output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64] }
-- input { 100i64 }
-- output { [2i64, 3i64, 5i64, 7i64, 11i64, 13i64, 17i64, 19i64, 23i64, 29i64, 31i64, 37i64, 41i64,
--    43i64, 47i64, 53i64, 59i64, 61i64, 67i64, 71i64, 73i64, 79i64, 83i64, 89i64, 97i64] }

def sieve (n: i64) : []i64 =
  let is_prime = replicate (n + 1) true
  let is_prime[0] = false
  let is_prime[1] = false
  let is_prime =
    loop is_prime for i in 2..<n + 1 do
      if i * i > n || !is_prime[i] then is_prime
      else let m = (n - i * i) / i + 1
           let multiples = map (\k -> i * i + k * i) (iota m)
           in scatter is_prime multiples (replicate m false)
  in filter (\i -> is_prime[i]) (iota (n + 1))

def main (n: i64) : []i64 = sieve n
