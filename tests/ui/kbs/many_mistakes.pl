% Three mistakes and one good operation: every mistake is reported at once, and the
% good operation still gets its method.

%! good(+X:int, -Y:int) is det.
good(X, Y) :- Y is X + 1.

%! first(?X:int) is det.
first(1).

%! second(+X:compound) is det.
second(_).

%! third(+X:int) is sometimes.
third(_).
