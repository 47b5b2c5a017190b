% Operations that push the engine to its limits (tests/e2e/pressure.rs).
:- use_module(library(lists)).
:- use_module(library(between)).

%! ints(+N:integer, -L:list(integer)) is det.
%  The list 1..N.
ints(N, L) :- numlist(1, N, L).

%! nat(-X:integer) is nondet.
%  Every natural number: a generator that never ends.
nat(X) :- nat_from(0, X).
nat_from(N, N).
nat_from(N, X) :- N1 is N + 1, nat_from(N1, X).

%! upto(+N:integer, -X:integer) is nondet.
%  1..N, one solution each.
upto(N, X) :- between(1, N, X).

%! nested(+N:integer, -T:any) is det.
%  A list nested N levels deep: [[[...]]].
nested(N, T) :- nest(N, T).
nest(0, []) :- !.
nest(N, [T]) :- N1 is N - 1, nest(N1, T).

%! spin is det.
%  Never ends.
spin :- spin_from(0).
spin_from(N) :- N1 is N + 1, spin_from(N1).

%! hog(+N:integer) is det.
%  Builds a list of N fresh variables and keeps it until the call ends.
hog(N) :- length(L, N), L = [x|_].

%! echo(+S:string, -T:string) is det.
%  Gives its argument back.
echo(S, S).

%! point(+K:integer, -V:integer) is det.
%  A cheap answer per key.
point(K, V) :- V is K * 2.

%! count(+N:integer, -C:integer) is det.
%  Counts down from N (about 2N inferences); answers N.
count(N, N) :- count_down(N).
count_down(0) :- !.
count_down(N) :- N1 is N - 1, count_down(N1).

%! none_below(+N:integer) is semidet.
%  Counts down from N (about 3N inferences), then fails.
none_below(N) :- count_down(N), fail.

%! count_then_throw(+N:integer) is det.
%  Counts down from N (about 3N inferences), then throws counted(N).
count_then_throw(N) :- count_down(N), throw(counted(N)).
