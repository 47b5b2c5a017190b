% The reasoning toolkit's side of the engine: loads lowered Euclid-IR programs
% (see lower.rs) after checking every clause against the allow-list, and collects
% the answers of a query with their proofs under a depth bound.
%
% Mutating built-ins are called through call/N: the engine's wrapper rewrites
% direct assertz/bb_put calls of a knowledge base into recorded changes (for
% replicating writes between workers), and what this file stores is a per-worker
% cache, not shared state.

:- dynamic('$e_loaded'/2).

% '$e_solve'(+File, +Prefix, +Extra, +Goal, +Template, +Limit, -Result)
% Loads the program in File once per worker, declares Extra (predicates the query
% names that the program does not), checks Goal, and collects every answer with
% at most Limit inferences (0: no count). Result = r(Templates, Exhausted),
% Exhausted = true when some branch was cut at the depth bound, or
% inference_limit. Loading is bounded by the size of the knowledge and the time
% limit, not counted: counting costs a third of the time of a load.
'$e_solve'(File, Prefix, Extra, Goal, T, Limit, Result) :-
    '$e_ensure'(File, Prefix, Preds),
    (   '$e_list'(Extra), '$e_preds'(Extra, Prefix)
    ->  '$e_declare'(Extra)
    ;   throw(euclid_refused(Extra))
    ),
    append(Extra, Preds, Known),
    (   '$e_body'(Goal, Known) -> true
    ;   throw(euclid_refused(Goal))
    ),
    call(bb_put, '$e_exhausted', false),
    (   Limit =:= 0
    ->  findall(T, Goal, Ts), R0 = true
    ;   call_with_inference_limit(findall(T, Goal, Ts), Limit, R0)
    ),
    (   R0 == inference_limit_exceeded
    ->  Result = inference_limit
    ;   bb_get('$e_exhausted', Exhausted),
        Result = r(Ts, Exhausted)
    ).

% '$e_deeper'(+Depth, -Next): one more rule application, if the bound allows it.
'$e_deeper'(D, E) :-
    (   D > 0
    ->  E is D - 1
    ;   call(bb_put, '$e_exhausted', true),
        fail
    ).

'$e_ensure'(_, Prefix, Preds) :- '$e_loaded'(Prefix, Preds), !.
'$e_ensure'(File, Prefix, Preds) :-
    open(File, read, S),
    catch(read_term(S, T, []), E, ( close(S), throw(E) )),
    close(S),
    (   '$e_admissible'(T, Prefix)
    ->  true
    ;   throw(euclid_refused(File))
    ),
    T = '$e_program'(Preds, Clauses),
    '$e_declare'(Preds),
    '$e_assert'(Clauses),
    call(assertz, '$e_loaded'(Prefix, Preds)).

% The whole program is checked before any of it is loaded: a predicate table of
% names under Prefix, and clauses whose heads and goals are all in the table (or
% are comparisons, or the depth step).
'$e_admissible'('$e_program'(Preds, Clauses), Prefix) :-
    '$e_list'(Preds), '$e_list'(Clauses),
    '$e_preds'(Preds, Prefix),
    '$e_clauses'(Clauses, Preds).

% A proper list (library(lists) has no is_list/1 in this engine).
'$e_list'(L) :- nonvar(L), ( L == [] -> true ; L = [_|T], '$e_list'(T) ).

'$e_preds'([], _).
'$e_preds'([N/A|Ps], Prefix) :-
    atom(N), integer(A), A >= 2, atom_concat(Prefix, _, N),
    '$e_preds'(Ps, Prefix).

'$e_clauses'([], _).
'$e_clauses'([C|Cs], Ps) :-
    nonvar(C),
    (   C = (H :- B)
    ->  '$e_own'(H, Ps), '$e_rule_body'(B, Ps)
    ;   '$e_own'(C, Ps)
    ),
    '$e_clauses'(Cs, Ps).

'$e_declare'([]).
'$e_declare'([N/A|Ps]) :-
    functor(H, N, A),
    (   predicate_property(H, dynamic) -> true
    ;   call(assertz, H), call(retract, H)
    ),
    '$e_declare'(Ps).

'$e_assert'([]).
'$e_assert'([C|Cs]) :- call(assertz, C), '$e_assert'(Cs).

'$e_rule_body'(('$e_deeper'(D, E), B), Ps) :- var(D), var(E), '$e_body'(B, Ps).

'$e_own'(G, Ps) :-
    callable(G), functor(G, N, A), memberchk(N/A, Ps).

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
