% A knowledge base that sets an inference limit of its own: scryer 0.10 counts
% such a goal differently with and without an outer counter, so Charon runs every
% call of it under the counter.

%! capped(+N:integer, -R:atom) is det.
%  Counts down from N under a limit of 1,000 inferences: done or capped.
capped(N, R) :-
    call_with_inference_limit(count_down(N), 1000, R0),
    (   R0 == inference_limit_exceeded -> R = capped ; R = done ).

count_down(0) :- !.
count_down(N) :- N1 is N - 1, count_down(N1).

%! capped_choice(-X:atom) is semidet.
%  Exceeds its own limit, then leaves a choice point behind.
capped_choice(X) :-
    call_with_inference_limit(spin, 100, _),
    member(X, [a, b]).

spin :- spin(0).
spin(N) :- N1 is N + 1, spin(N1).

%! count(+N:integer, -C:integer) is det.
%  Counts down from N (about 3N inferences); answers N.
count(N, N) :- count_down(N).
