%! rethrow(+X:atom) is det.
%  Throws X: a client chooses the exception term.
rethrow(X) :- throw(X).
