:- dynamic(cf/2).

cf(1, 1).
cf(1, 2).
cf(2, 3).
