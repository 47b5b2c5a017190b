%! good(+X:int, -Y:int) is det.
good(X, Y) :- Y is X + 1.
