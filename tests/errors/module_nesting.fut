-- Modules nested deeper than the checker allows (250 levels).
-- ==
-- error: 255:12: error: Modules are nested too deeply

module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
module m = {
def x = 1i32
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}

def main (y: i32) = y
