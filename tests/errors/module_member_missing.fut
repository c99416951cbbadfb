-- ==
-- error: 8:12: error: Unknown name "m.y"

module m = {
  def x = 1
}

def main = m.y
