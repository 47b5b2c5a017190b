% own_limit.pl's goals, with the inner limit reached through a goal built at run
% time: the analysis cannot see it, so Charon must assume it.

%! capped_choice(-X:atom) is semidet.
%  Exceeds a limit of its own (called through a built goal), then leaves a choice
%  point behind.
capped_choice(X) :-
    G =.. [call_with_inference_limit, spin, 100, _],
    call(G),
    member(X, [a, b]).

spin :- spin(0).
spin(N) :- N1 is N + 1, spin(N1).

%! count(+N:integer, -C:integer) is det.
%  Counts down from N (about 3N inferences); answers N.
count(N, N) :- count_down(N).
count_down(0) :- !.
count_down(N) :- N1 is N - 1, count_down(N1).
