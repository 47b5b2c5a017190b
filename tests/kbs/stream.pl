% Operations for the streamed-answer tests (tests/e2e/stream.rs).

%! count(+N:int, -I:int) is nondet.
%  The integers 1 to N.
count(N, I) :- between(1, N, I).

%! pairs(+N:int, -I:int, -Name:atom) is nondet.
%  Two outputs a solution: I and an atom made from it.
pairs(N, I, Name) :-
    between(1, N, I),
    number_codes(I, Cs),
    atom_codes(A, [0'n|Cs]),
    Name = A.

%! then_throw(+N:int, -I:int) is nondet.
%  N solutions, then an exception.
then_throw(N, I) :- ( between(1, N, I) ; throw(error(type_error(integer, oops), then_throw/2)) ).

%! quoted(-A:atom) is multi.
%  Atoms the engine's writer handles with care.
quoted(A) :- member(A, ['''''', '', 'a''b', '\n', '$charon_s', x]).

%! deep(+N:int, -T:any) is nondet.
%  One shallow solution, then one nested N deep.
deep(_, [1]).
deep(N, T) :- nest(N, T).

nest(0, []) :- !.
nest(N, [T]) :- N1 is N - 1, nest(N1, T).

%! endless(-I:int) is nondet.
%  Never ends.
endless(I) :- from(1, I).

from(N, N).
from(N, M) :- N1 is N + 1, from(N1, M).

%! total(+N:int, -Sum:int) is det.
%  Not a stream: det.
total(N, Sum) :- numlist(1, N, L), sum_list(L, Sum).

%! first_then_slow(-I:int) is nondet.
%  One solution at once, then a search that never ends.
first_then_slow(I) :- ( I = 1 ; spin(0), I = 2 ).

spin(N) :- N1 is N + 1, spin(N1).
