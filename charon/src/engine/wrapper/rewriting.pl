% ---------------------------------------------------------------------------
% The rewriting (see above). It must stay last in this file: everything after the
% term_expansion clause would be rewritten too.

% '$charon_rewrite'(+Goal0, +Module, -Goal)
'$charon_rewrite'(G, _, G) :- var(G), !.
'$charon_rewrite'(M:G0, _, M:G) :- !, '$charon_rewrite'(G0, M, G).
'$charon_rewrite'(G0, M, G) :-
    '$charon_control'(G0, G, Pairs), !,
    '$charon_rewrite_pairs'(Pairs, M).
'$charon_rewrite'(G0, M, call(user:G)) :-
    '$charon_mutator'(G0, M, G), !.
'$charon_rewrite'(G, _, G).

'$charon_rewrite_pairs'([], _).
'$charon_rewrite_pairs'([A0-A|Ps], M) :- '$charon_rewrite'(A0, M, A), '$charon_rewrite_pairs'(Ps, M).

% '$charon_control'(+G0, -G, -Pairs): G0 is a control construct or a meta-call whose
% goal arguments are known; G is G0 with each goal argument A0 replaced by A.
'$charon_control'((A0, B0), (A, B), [A0-A, B0-B]).
'$charon_control'((A0 ; B0), (A ; B), [A0-A, B0-B]).
'$charon_control'((A0 -> B0), (A -> B), [A0-A, B0-B]).
'$charon_control'('*->'(A0, B0), '*->'(A, B), [A0-A, B0-B]).
'$charon_control'(\+ A0, \+ A, [A0-A]).
'$charon_control'(call(A0), call(A), [A0-A]).
'$charon_control'(once(A0), once(A), [A0-A]).
'$charon_control'(ignore(A0), ignore(A), [A0-A]).
'$charon_control'(forall(A0, B0), forall(A, B), [A0-A, B0-B]).
'$charon_control'(findall(T, A0, L), findall(T, A, L), [A0-A]).
'$charon_control'(findall(T, A0, L, L1), findall(T, A, L, L1), [A0-A]).
'$charon_control'(bagof(T, A0, L), bagof(T, A, L), Ps) :- '$charon_carets'(A0, A, Ps).
'$charon_control'(setof(T, A0, L), setof(T, A, L), Ps) :- '$charon_carets'(A0, A, Ps).
'$charon_control'(catch(A0, C, B0), catch(A, C, B), [A0-A, B0-B]).
'$charon_control'(call_cleanup(A0, B0), call_cleanup(A, B), [A0-A, B0-B]).
'$charon_control'(setup_call_cleanup(S0, A0, B0), setup_call_cleanup(S, A, B),
                  [S0-S, A0-A, B0-B]).
'$charon_control'(call_with_inference_limit(A0, N, R), call_with_inference_limit(A, N, R),
                  [A0-A]).
'$charon_carets'(G0, G, Ps) :-
    (   nonvar(G0), G0 = V^G1
    ->  G = V^G2, '$charon_carets'(G1, G2, Ps)
    ;   Ps = [G0-G]
    ).

'$charon_mutator'(assertz(C), M, '$charon_j_assertz'(M, C)).
'$charon_mutator'(asserta(C), M, '$charon_j_asserta'(M, C)).
'$charon_mutator'(retract(C), M, '$charon_j_retract'(M, C)).
'$charon_mutator'(retractall(H), M, '$charon_j_retractall'(M, H)).
'$charon_mutator'(bb_put(K, V), _, '$charon_j_bb_put'(K, V)).

'$charon_rewrite_dcg'(B, _, B) :- var(B), !.
'$charon_rewrite_dcg'({G0}, M, {G}) :- !, '$charon_rewrite'(G0, M, G).
'$charon_rewrite_dcg'((A0, B0), M, (A, B)) :- !,
    '$charon_rewrite_dcg'(A0, M, A), '$charon_rewrite_dcg'(B0, M, B).
'$charon_rewrite_dcg'((A0 ; B0), M, (A ; B)) :- !,
    '$charon_rewrite_dcg'(A0, M, A), '$charon_rewrite_dcg'(B0, M, B).
'$charon_rewrite_dcg'('|'(A0, B0), M, '|'(A, B)) :- !,
    '$charon_rewrite_dcg'(A0, M, A), '$charon_rewrite_dcg'(B0, M, B).
'$charon_rewrite_dcg'((A0 -> B0), M, (A -> B)) :- !,
    '$charon_rewrite_dcg'(A0, M, A), '$charon_rewrite_dcg'(B0, M, B).
'$charon_rewrite_dcg'(\+ A0, M, \+ A) :- !, '$charon_rewrite_dcg'(A0, M, A).
'$charon_rewrite_dcg'(B, _, B).

% '$charon_expand'(+Clause0, +Module, -Clause): fails when nothing changes, which
% also ends the loader's repeated expansion.
% An initialization goal (scryer runs no other goal as a directive) is wrapped so
% that the engine can say which one is running if loading does not finish
% ('$charon_running'/2).
'$charon_expand'((:- initialization(G)), M, (:- initialization(user:'$charon_running'(initialization(G), M:G)))) :-
    nonvar(G), G \= '$charon_running'(_, _), G \= _:'$charon_running'(_, _), !.
'$charon_expand'((H :- B0), M, (H :- B)) :-
    '$charon_rewrite'(B0, M, B), B \== B0.
'$charon_expand'((H --> B0), M, (H --> B)) :-
    '$charon_rewrite_dcg'(B0, M, B), B \== B0.

% '$charon_running'(+Directive, +Goal): runs Goal, saying on stderr which
% directive runs until it ends (the engine names it if loading times out).
'$charon_running'(D, G) :-
    '$charon_show'(D, A),
    format(user_error, "charon-running: ~a~n", [A]),
    flush_output(user_error),
    setup_call_cleanup(true, G,
        ( format(user_error, "charon-running: done~n", []), flush_output(user_error) )).

% Libraries (loaded from scryer's own '/lib') keep their code: their internal
% state is theirs, loaded alike in every worker.
term_expansion(C0, C) :-
    \+ prolog_load_context(directory, '/lib'),
    prolog_load_context(module, M),
    '$charon_expand'(C0, M, C).
