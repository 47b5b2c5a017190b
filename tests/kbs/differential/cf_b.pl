:- dynamic(cf/2).

cf(3, 1).
cf(1, 4).
cf(1, 4).
