% Loading takes a while (a directive counts to a few million), calls are cheap.
:- use_module(library(between)).

%! point(+K:integer, -V:integer) is det.
%  A cheap answer per key.
point(K, V) :- V is K * 2.

warm_up :- count(0).
count(N) :- ( N >= 3000000 -> true ; N1 is N + 1, count(N1) ).
:- initialization(warm_up).
