% Fixture: call_with_inference_limit/3 inside a knowledge base, with limits of every
% size (the engine counts inferences in machine words: vendor/scryer-prolog/CHARON.md).

:- use_module(library(iso_ext)).
:- use_module(library(lists)).

%! within(+Limit:int, -Result:atom) is det.
%  Counts to 50 within Limit inferences: `det`, or `exceeded`.
within(L, R) :-
    call_with_inference_limit(numlist(1, 50, _), L, R0),
    result(R0, R).

%! within_huge(-Result:atom) is det.
%  within/2 with a limit far beyond 2^64.
within_huge(R) :-
    within(100000000000000000000000000000, R).

%! nested(+Limit:int, -Result:atom) is det.
%  within_huge/1 under an outer limit of Limit inferences: the outer limit holds.
nested(L, R) :-
    call_with_inference_limit(within_huge(R1), L, R0),
    (   R0 == inference_limit_exceeded -> R = exceeded
    ;   R = R1
    ).

%! again(+Limit:int, +Second:int, -Results:list(atom)) is det.
%  Each solution of member/2 within one limit of Limit inferences, then within/2
%  with a limit of Second: the count goes on across the solutions and starts
%  afresh for the next limit.
again(L, M, Rs) :-
    findall(R, ( call_with_inference_limit(member(_, [a, b, c]), L, R0), result(R0, R) ), Rs0),
    within(M, R1),
    append(Rs0, [R1], Rs).

result(!, det).
result(true, nondet).
result(inference_limit_exceeded, exceeded).

%! exceeded_then(+Second:int, -Results:list(atom)) is det.
%  within/2 with a limit too small, then within/2 with a limit of Second: an
%  exceeded limit does not switch counting off for the rest of the call.
exceeded_then(M, [R0, R1]) :-
    within(10, R0),
    within(M, R1).

%! exceeded_then_forever(-Result:atom) is det.
%  An exceeded limit of the knowledge base's own, then a goal that never ends: the
%  server's inference limit still stops it.
exceeded_then_forever(R) :-
    within(10, R),
    forever.

%! lifted(-Result:atom) is det.
%  A goal that never ends under a limit of the knowledge base's own far above the
%  server's: the server's limit stops it all the same (a limit nests, it never lifts).
lifted(R) :-
    call_with_inference_limit(forever, 1000000000000000000000000, R0),
    result(R0, R).

forever :- forever_(0).
forever_(N) :- N1 is N + 1, forever_(N1).
