-- f16 arithmetic is binary16 arithmetic: every result is rounded to half
-- precision (60000 * 60000 and 60000 + 60000 overflow to infinity). The
-- expected bits were computed with numpy's float16.
-- ==
-- entry: add
-- input { [11878u16, 12902u16, 25552u16, 5145u16, 16968u16, 31571u16]
--         [12902u16, 14746u16, 13517u16, 25552u16, 16752u16, 31571u16] }
-- output { [13516u16, 15156u16, 25553u16, 25552u16, 17884u16, 31744u16] }
-- ==
-- entry: sub
-- input { [11878u16, 12902u16, 25552u16, 5145u16, 16968u16, 31571u16]
--         [12902u16, 14746u16, 13517u16, 25552u16, 16752u16, 31571u16] }
-- output { [44646u16, 47104u16, 25551u16, 58320u16, 14016u16, 0u16] }
-- ==
-- entry: mul
-- input { [11878u16, 12902u16, 25552u16, 5145u16, 16968u16, 31571u16]
--         [12902u16, 14746u16, 13517u16, 25552u16, 16752u16, 31571u16] }
-- output { [9502u16, 12411u16, 23728u16, 15360u16, 18501u16, 31744u16] }
-- ==
-- entry: div
-- input { [11878u16, 12902u16, 25552u16, 5145u16, 16968u16, 31571u16]
--         [12902u16, 14746u16, 13517u16, 25552u16, 16752u16, 31571u16] }
-- output { [14336u16, 13458u16, 27266u16, 17u16, 15519u16, 15360u16] }
-- ==
-- entry: mad
-- input { [11878u16, 12902u16, 25552u16, 5145u16, 16968u16, 31571u16]
--         [12902u16, 14746u16, 13517u16, 25552u16, 16752u16, 31571u16] }
-- output { [12206u16, 13680u16, 25876u16, 15361u16, 18903u16, 31744u16] }
-- ==
-- entry: sqrt
-- input { [11878u16, 12902u16, 25552u16, 5145u16, 16968u16, 31571u16] }
-- output { [13583u16, 14120u16, 20456u16, 10252u16, 16151u16, 23464u16] }

def on2 f (xs: []u16) (ys: []u16) : []u16 =
  map2 (\x y -> f16.to_bits (f (f16.from_bits x) (f16.from_bits y))) xs ys

entry add = on2 (+)
entry sub = on2 (-)
entry mul = on2 (*)
entry div = on2 (/)
-- the product is rounded before the addition
entry mad = on2 (\x y -> x * y + x)
entry sqrt (xs: []u16) : []u16 = map (f16.from_bits >-> f16.sqrt >-> f16.to_bits) xs
