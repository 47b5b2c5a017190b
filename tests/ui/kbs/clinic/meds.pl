%! dose(+Drug:atom, -Mg:int) is semidet.
dose(aspirin, 100).
