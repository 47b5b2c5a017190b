%! stock(+Drug:atom, -Units:int) is semidet.
stock(aspirin, 40).
