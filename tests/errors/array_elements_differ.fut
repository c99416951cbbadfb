-- ==
-- error: 4:16: error: .*cannot unify

def main = [1, true]
