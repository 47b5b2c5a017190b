% The reasoning toolkit's side of the engine: loads lowered Euclid-IR programs
% (see lower.rs; a program comes inside the query of the first call a worker gets
% for it) after checking every clause against the allow-list, and collects the
% answers of a query with their proofs under a depth bound.
%
% Mutating built-ins are called through call/N: the engine's wrapper rewrites
% direct assertz/bb_put calls of a knowledge base into recorded changes (for
% replicating writes between workers), and what this file stores is a per-worker
% cache, not shared state.

:- dynamic('$e_loaded'/1).

% '$e_solve'(+Program, +Prefix, +Extra, +Goal, +Template, +Limit, +Max, -Result)
% Runs the program named by Prefix, loading Program first if this worker has not
% (Program = none when the caller expects it loaded: Result = need_program if it is
% not). Declares Extra (predicates the query names that the program does not),
% checks Goal, and collects the answers (one per proof) with at most Limit
% inferences (0: no count). Result = r(Templates, Exhausted), Exhausted = true when
% some branch was cut at the depth bound; or inference_limit. Past Max answers it
% throws '$e_too_many'. Loading is bounded by the size of the knowledge and
% the time limit, not counted: counting costs a third of the time of a load.
'$e_solve'(Program, Prefix, Extra, Goal, T, Limit, Max, Result) :-
    (   '$e_loaded'(Prefix)
    ->  '$e_run'(Prefix, Extra, Goal, T, Limit, Max, Result)
    ;   Program == none
    ->  Result = need_program
    ;   '$e_load'(Program, Prefix),
        '$e_run'(Prefix, Extra, Goal, T, Limit, Max, Result)
    ).

'$e_run'(Prefix, Extra, Goal, T, Limit, Max, Result) :-
    (   '$e_list'(Extra), '$e_preds'(Extra, Prefix)
    ->  '$e_declare'(Extra)
    ;   throw(euclid_refused(query))
    ),
    (   '$e_body'(Goal, Prefix) -> true
    ;   throw(euclid_refused(query))
    ),
    call(bb_put, '$e_exhausted', false),
    call(bb_put, '$e_answers', 0),
    % Past Max answers, '$e_too_many' is thrown to the wrapper's catch/3 (one
    % catch per call is enough, and each costs).
    (   Limit =:= 0
    ->  findall(T, '$e_upto'(Goal, Max), Ts), R0 = true
    ;   call_with_inference_limit(findall(T, '$e_upto'(Goal, Max), Ts), Limit, R0)
    ),
    (   R0 == inference_limit_exceeded
    ->  Result = inference_limit
    ;   bb_get('$e_exhausted', Exhausted),
        Result = r(Ts, Exhausted)
    ).

% Goal's answers, stopping with '$e_too_many' past the Max-th.
'$e_upto'(Goal, Max) :-
    call(Goal),
    bb_get('$e_answers', N0),
    N is N0 + 1,
    call(bb_put, '$e_answers', N),
    (   N > Max -> throw('$e_too_many') ; true ).

% '$e_num'(+X): X is a number, else the type error arithmetic would raise for an
% atom (constants such as pi or e must not evaluate as numbers).
'$e_num'(X) :-
    (   number(X) -> true
    ;   var(X) -> throw(error(instantiation_error, euclid))
    ;   throw(error(type_error(evaluable, X/0), euclid))
    ).

% '$e_same'(+X, +Y): X and Y are the same value, numbers by value (1 == 1.0),
% anything else as written; '$e_differ'(+X, +Y): they are not. Both sides must
% have values, as for arithmetic.
'$e_same'(X, Y) :-
    '$e_bound'(X), '$e_bound'(Y),
    (   number(X), number(Y) -> X =:= Y ; X == Y ).
'$e_differ'(X, Y) :-
    \+ '$e_same'(X, Y).

% '$e_div'(+A, +B, -Q): Q is A / B as SWI-Prolog (and the reference) computes it:
% the integer quotient when both are integers that divide exactly, else ISO's
% float division (whose errors, such as a zero divisor, are raised as they are).
'$e_div'(A, B, Q) :-
    X is A, Y is B,
    (   integer(X), integer(Y), Y =\= 0, X mod Y =:= 0
    ->  Q is X // Y
    ;   Q is X / Y
    ).

'$e_bound'(X) :-
    (   ground(X) -> true ; throw(error(instantiation_error, euclid)) ).

% '$e_deeper'(+Depth, -Next): one more rule application, if the bound allows it.
'$e_deeper'(D, E) :-
    (   D > 0
    ->  E is D - 1
    ;   call(bb_put, '$e_exhausted', true),
        fail
    ).

'$e_load'(Program, Prefix) :-
    (   '$e_admissible'(Program, Prefix)
    ->  true
    ;   throw(euclid_refused(program))
    ),
    Program = '$e_program'(Undefined, Clauses),
    '$e_declare'(Undefined),
    '$e_compile'(Clauses),
    call(assertz, '$e_loaded'(Prefix)).

% '$e_compile'(+Clauses): compiles the (checked) clauses the way the engine's
% loader compiles a file, a whole predicate at a time: about twice as fast as
% asserting them one by one, which updates the predicate on every clause. The
% loader's queue is flushed (that predicate compiled) where the next group starts,
% as the loader does for a file. A clause the loader itself refuses (a permission
% or syntax error) rolls the whole load back; the load state is then dropped and
% the error rethrown, so the next query runs on a clean engine. Any other exception
% (say, running out of memory) can leave predicates of the program compiled, but
% never marks it loaded: a retry compiles it again, replacing them. The predicates
% are static: nothing adds to a loaded program.
'$e_compile'(Clauses) :-
    current_input(S),
    loader:create_load_context(S, Ev),
    catch('$e_enqueue'(Clauses, none, Ev),
          E,
          ( loader:unload_evacuable(Ev), throw(E) )),
    '$pop_load_context'.

'$e_enqueue'([], _, Ev) :-
    '$conclude_load'(Ev).
'$e_enqueue'([C|Cs], Last, Ev) :-
    (   C = (H :- _) -> true ; H = C ),
    functor(H, N, A),
    (   N/A == Last -> true ; '$flush_term_queue'(Ev) ),
    '$clause_to_evacuable'(C, Ev),
    '$e_enqueue'(Cs, N/A, Ev).

% The whole program is checked before any of it is loaded: a table of predicates
% it calls but does not define, all named under Prefix, and clauses whose heads
% and goals are all under Prefix (or are comparisons, number checks, or the depth
% step).
'$e_admissible'(Program, Prefix) :-
    nonvar(Program),
    Program = '$e_program'(Undefined, Clauses),
    '$e_list'(Undefined),
    '$e_preds'(Undefined, Prefix),
    '$e_list'(Clauses),
    '$e_clauses'(Clauses, Prefix, none).

% A proper list (library(lists) has no is_list/1 in this engine).
'$e_list'(L) :- nonvar(L), ( L == [] -> true ; L = [_|T], '$e_list'(T) ).

'$e_preds'([], _).
'$e_preds'([N/A|Ps], Prefix) :-
    atom(N), integer(A), A >= 2, atom_concat(Prefix, _, N),
    '$e_preds'(Ps, Prefix).

% Clauses come grouped by predicate, the groups in the standard order of
% Name/Arity: a head with the functor just checked needs no second look at its
% name, and a predicate cannot come back after another (the loader would replace
% its first group with the second).
'$e_clauses'([], _, _).
'$e_clauses'([C|Cs], P, Last) :-
    nonvar(C),
    (   C = (H :- B)
    ->  '$e_head'(H, P, Last, Next), '$e_rule_body'(B, P)
    ;   '$e_head'(C, P, Last, Next)
    ),
    '$e_clauses'(Cs, P, Next).

'$e_head'(H, P, Last, N/A) :-
    callable(H), functor(H, N, A),
    (   N/A == Last -> true
    ;   N/A @> Last, '$e_own'(H, P)
    ).

% '$e_declare'(+Predicates): a predicate the program calls but does not define
% becomes dynamic, without clauses, so goals on it fail instead of raising.
'$e_declare'([]).
'$e_declare'([N/A|Ps]) :-
    functor(H, N, A),
    (   predicate_property(H, dynamic) -> true
    ;   call(assertz, H), call(retract, H)
    ),
    '$e_declare'(Ps).

'$e_rule_body'(('$e_deeper'(D, E), B), P) :- var(D), var(E), '$e_body'(B, P).

'$e_own'(G, Prefix) :-
    callable(G), functor(G, N, A), A >= 2, atom(N), atom_concat(Prefix, _, N).

'$e_body'(G, _) :- var(G), !, fail.
'$e_body'((A, B), P) :- !, '$e_body'(A, P), '$e_body'(B, P).
'$e_body'(\+ G, P) :- !, nonvar(G), '$e_own'(G, P).
'$e_body'(true, _) :- !.
'$e_body'(fail, _) :- !.
'$e_body'('$e_num'(X), _) :- !, var(X).
'$e_body'('$e_same'(_, _), _) :- !.
'$e_body'('$e_differ'(_, _), _) :- !.
'$e_body'('$e_div'(A, B, Q), _) :- !, var(Q), '$e_arith'(A), '$e_arith'(B).
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
