% Fixture: one echo operation per type, for round trips of values through every
% surface (tests/e2e/roundtrip.rs). `get_` names make them GET routes, so values
% travel in query strings as well as in JSON bodies.

:- use_module(library(lists)).

%! get_atom(+In:atom, -Out:atom) is det.
get_atom(X, X).
%! get_string(+In:string, -Out:string) is det.
get_string(X, X).
%! get_int(+In:int, -Out:int) is det.
get_int(X, X).
%! get_float(+In:float, -Out:float) is det.
get_float(X, X).
%! get_atoms(+In:list(atom), -Out:list(atom)) is det.
get_atoms(X, X).
%! get_any(+In:any, -Out:any) is det.
get_any(X, X).
%! get_each(+In:list(any), -Out:any) is nondet.
%  Every element, one solution each (the path that collects solutions).
get_each(L, X) :- member(X, L).
%! get_pair(+A:atom, +S:string, -X:atom, -Y:string) is semidet.
get_pair(A, S, A, S).
