/*  Charon (CHARON.md, item 30): asserta/1 on a dynamic predicate whose loaded
    clauses index it on another argument than the asserted clauses, then a call.
    The alternative of the newest clause is a jump back (RevJmpBy) at the end of
    the code: 0.10.0 read the instruction after it as a clause head (an index out
    of bounds, the process aborted) or, with code after it, lost the clauses
    behind the jump. The answers are SWI-Prolog 9's.
*/
:- dynamic(q/2).
q(_, 9).

:- dynamic(r/2).
r(X, 9) :- X = f(w).
r(f(y), 2).

:- dynamic(s/2).
s(a, 0).
s(f(z), 3).

% A variable is shown as the atom '_', so that the output is the same in every run.
shown(K, K1) :- ( var(K) -> K1 = '_' ; K1 = K ).

t1 :-
    asserta(q(a, 1)), asserta(q(b, 2)),
    findall(K1-V, ( q(K, V), shown(K, K1) ), L0), findall(V, q(a, V), L1), findall(V, q(c, V), L2),
    write([L0, L1, L2]), nl.

t2 :-
    assertz(r([h], 0)), asserta(r(a, 1)), asserta(r(1, 3)),
    findall(K1-V, ( r(K, V), shown(K, K1) ), L0), findall(V, r(a, V), L1), findall(V, r(f(w), V), L2),
    findall(V, r([h], V), L3), findall(K, clause(r(K, _), true), L4),
    write([L0, L1, L2, L3, L4]), nl.

t3 :-
    asserta(s(g(y), 1)), assertz(s([h], 2)), asserta(s(f(y), 3)), asserta(s(a, 4)),
    asserta(s(1, 5)), ( retract(s(b, _)) -> true ; true ), asserta(s(1, 6)),
    assertz(s(_, 7)),
    findall(K1-V, ( s(K, V), shown(K, K1) ), L0), findall(V, s(a, V), L1), findall(V, s(f(x), V), L2),
    findall(V, s(1, V), L3),
    write([L0, L1, L2, L3]), nl.
