% The reasoning toolkit's side of the engine: loads lowered Euclid-IR programs
% (see lower.rs) after checking every clause against the allow-list, and collects
% the answers of a query with their proofs under a depth bound.
%
% Mutating built-ins are called through call/N: the engine's wrapper rewrites
% direct assertz/bb_put calls of a knowledge base into recorded changes (for
% replicating writes between workers), and what this file stores is a per-worker
% cache, not shared state.

:- dynamic('$e_loaded'/1).

% '$e_solve'(+File, +Prefix, +Goal, +Template, -Result)
% Loads the program in File once per worker, checks Goal, and collects every
% answer: Result = r(Templates, Exhausted), Exhausted = true when some branch was
% cut at the depth bound.
'$e_solve'(File, Prefix, Goal, T, r(Ts, Exhausted)) :-
    '$e_ensure'(File, Prefix),
    (   '$e_body'(Goal, Prefix) -> true
    ;   throw(euclid_refused(Goal))
    ),
    call(bb_put, '$e_exhausted', false),
    findall(T, Goal, Ts),
    bb_get('$e_exhausted', Exhausted).

% '$e_deeper'(+Depth, -Next): one more rule application, if the bound allows it.
'$e_deeper'(D, E) :-
    (   D > 0
    ->  E is D - 1
    ;   call(bb_put, '$e_exhausted', true),
        fail
    ).

'$e_ensure'(_, Prefix) :- '$e_loaded'(Prefix), !.
'$e_ensure'(File, Prefix) :-
    open(File, read, S),
    catch('$e_load'(S, Prefix), E, ( close(S), throw(E) )),
    close(S),
    call(assertz, '$e_loaded'(Prefix)).

'$e_load'(S, Prefix) :-
    read_term(S, T, []),
    (   T == end_of_file
    ->  true
    ;   '$e_admit'(T, Prefix),
        '$e_load'(S, Prefix)
    ).

% Only what lowering may emit is admitted; anything else stops the load.
'$e_admit'('$e_undefined'(N, A), P) :- !,
    atom(N), atom_concat(P, _, N), integer(A), A >= 2,
    functor(H, N, A),
    (   predicate_property(H, dynamic) -> true
    ;   call(assertz, H), call(retract, H)
    ).
'$e_admit'((H :- B), P) :- !,
    (   '$e_own'(H, P), '$e_rule_body'(B, P)
    ->  call(assertz, (H :- B))
    ;   throw(euclid_refused((H :- B)))
    ).
'$e_admit'(H, P) :-
    (   '$e_own'(H, P)
    ->  call(assertz, H)
    ;   throw(euclid_refused(H))
    ).

'$e_rule_body'(('$e_deeper'(D, E), B), P) :- var(D), var(E), '$e_body'(B, P).

'$e_own'(G, P) :-
    callable(G), functor(G, N, A), A >= 2, atom_concat(P, _, N).

'$e_body'(G, _) :- var(G), !, fail.
'$e_body'((A, B), P) :- !, '$e_body'(A, P), '$e_body'(B, P).
'$e_body'(\+ G, P) :- !, nonvar(G), '$e_own'(G, P).
'$e_body'(G, _) :- '$e_comparison'(G), !.
'$e_body'(G, P) :- '$e_own'(G, P).

'$e_comparison'(G) :-
    G =.. [Op, L, R],
    memberchk(Op, [>, >=, <, =<, =:=, =\=, is]),
    '$e_arith'(L), '$e_arith'(R).

'$e_arith'(X) :- var(X), !.
'$e_arith'(X) :- number(X), !.
'$e_arith'(-(X)) :- !, '$e_arith'(X).
'$e_arith'(X) :-
    X =.. [Op, A, B],
    memberchk(Op, [+, -, *, /]),
    '$e_arith'(A), '$e_arith'(B).
