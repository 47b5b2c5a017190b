/*  Charon (CHARON.md, item 32): choice points made while the stack grows past its
    first 10 MiB. When the stack grows, its new space starts at the old block's
    end; a frame's offset must be where it was allocated, or its saved arguments
    are read from the wrong place on backtracking (a crash, or wrong answers).
    pad(P, N) first leaves P choice points of another size, so that the frame that
    crosses the end differs from run to run. The answers are SWI-Prolog 9's.
*/
:- use_module(library(lists)).

c(0, _, done).
c(N, K, R) :- N > 0, N1 is N - 1, K1 is K + 1, ( c(N1, K1, R) ; R = back(N, K) ).

t(N) :-
    findall(R, c(N, 0, R), Rs),
    length(Rs, Len), Rs = [First, Second|_], append(_, [Last], Rs),
    write([Len, First, Second, Last]), nl.

pad(0, N) :- !, t(N).
pad(P, N) :- P1 is P - 1, ( pad(P1, N) ; true ).
