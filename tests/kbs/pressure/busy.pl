% Slow to load (a directive counts to five million) and with a call that can keep
% its worker busy: a call queued behind it can run out of time before it starts.

%! point(+K:integer, -V:integer) is det.
%  A cheap answer per key.
point(K, V) :- V is K * 2.

%! count(+N:integer, -C:integer) is det.
%  Counts down from N; answers N.
count(N, N) :- count_down(N).
count_down(0) :- !.
count_down(N) :- N1 is N - 1, count_down(N1).

warm_up :- count_down(5000000).
:- initialization(warm_up).
