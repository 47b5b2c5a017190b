% A documented helper whose mode no operation can have.

%! in_list(?X, +L:list) is nondet.
in_list(X, [X|_]).
in_list(X, [_|T]) :- in_list(X, T).

%! colours(-L:list(atom)) is det.
colours([red, green]).
