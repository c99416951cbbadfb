-- ==
-- error: 8:12: error: Module "m" has no member "y"

module m = {
  def x = 1
}

def main = m.y
