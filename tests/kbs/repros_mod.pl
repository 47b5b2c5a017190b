/*  A module for tests/kbs/engine_repros.pl: clause/2 on the module's own dynamic
    predicate, called unqualified inside the module (engine item 25). */

:- module(repros_mod, [module_clauses/1]).

:- dynamic(mf/2).

mf(1, a).
mf(2, b).

module_clauses([L1, L2, L3]) :-
    findall(X, clause(mf(X, _), true), L1),
    assertz(mf(3, c)),
    findall(X, clause(repros_mod:mf(X, _), true), L2),
    retract(mf(3, c)),
    findall(X, clause(mf(X, _), _), L3).
