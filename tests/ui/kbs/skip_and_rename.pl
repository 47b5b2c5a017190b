% A helper kept out, and two predicates of one name told apart.

%! in_list(?X, +L) is nondet.
%
%  A helper with a mode no operation can have.
%  @charon skip
in_list(X, [X|_]).
in_list(X, [_|T]) :- in_list(X, T).

%! dup(+X:int, -Y:int) is det.
dup(X, Y) :- Y is X * 2.

%! dup(+X:int, +Times:int, -Y:int) is det.
%
%  @charon name dup_times
dup(X, N, Y) :- Y is X * N.
