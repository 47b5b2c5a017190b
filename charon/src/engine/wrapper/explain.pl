% ---------------------------------------------------------------------------
% Explaining a call: a proof tree per solution, for the pure subset of Prolog.
% Clauses of static predicates are out of clause/2's reach in this engine, so the
% first explanation a worker gives reads the knowledge base's file into
% '$charon_src'/4 (module, head, body, at(File, Line)); dynamic predicates are read live. Only the
% knowledge base's own predicates and the built-ins listed below can be traced:
% anything else (cut, if-then-else, disjunction, call/N, findall, a change to the
% database, I/O) raises charon_explain(unsupported(Name/Arity)) before it runs.

:- dynamic('$charon_src'/4).
:- dynamic('$charon_src_pred'/3).
:- dynamic('$charon_src_file'/1).
:- dynamic('$charon_src_seen'/1).

% '$charon_explain'(+File, +Goal, +Depth, +Limit, -Proof): Proof = n(Kind, Text,
% Children) or, for a clause, n(Kind, Text, Children, At) (At = at(File, Line) of
% a clause read from a file, live for a dynamic one); Kind fact | rule | builtin |
% negation, Text the goal as proved (quoted text).
% Loading the file is not counted against the call's inference limit (Lim, 0 for
% none); the trace is.
'$charon_explain'(File, G, D, Lim, P) :-
    '$charon_src_load'(File),
    (   Lim =:= 0
    ->  '$charon_x'(G, user, D, P)
    ;   call_with_inference_limit('$charon_x'(G, user, D, P), Lim, R),
        (   R == inference_limit_exceeded -> throw(charon_explain(inference_limit)) ; true )
    ).

'$charon_src_load'(File) :-
    (   '$charon_src_file'(File) -> true
    ;   call(retractall, '$charon_src'(_, _, _, _)),
        call(retractall, '$charon_src_pred'(_, _, _)),
        call(retractall, '$charon_src_file'(_)),
        call(retractall, '$charon_src_seen'(_)),
        '$charon_src_from'(File, user),
        call(assertz, '$charon_src_file'(File))
    ).

% The files the knowledge base loads (include/1, consult/1, ensure_loaded/1 and
% use_module/1,2 of its own files) are read too, each once: an included file into
% the module of the file that includes it, another file into user unless it
% declares a module.
'$charon_src_from'(File, M) :-
    (   '$charon_src_seen'(File) -> true
    ;   call(assertz, '$charon_src_seen'(File)),
        setup_call_cleanup(open(File, read, S), '$charon_src_read'(S, File, M), close(S))
    ).

'$charon_src_read'(S, File, M) :-
    (   '$devour_whitespace'(S)
    ->  '$stream_property'(S, position, position_and_lines_read(_, Lines)),
        read_term(S, T, []),
        Line is Lines + 1
    ;   T = end_of_file
    ),
    (   T == end_of_file -> true
    ;   '$charon_src_term'(T, File, at(File, Line), M, M1),
        '$charon_src_read'(S, File, M1)
    ).

% '$charon_src_term'(+Term, +File, +At, +M0, -M): a term of File read, At =
% at(File, Line) the line it starts on (shown as the proof node's line and used
% to find its `% rule:` id).
'$charon_src_term'(T, _, _, M, M) :- var(T), !.
'$charon_src_term'((:- module(M, _)), _, _, _, M) :- !.
'$charon_src_term'((:- D), File, _, M, M) :-
    nonvar(D), '$charon_loads'(D, Specs0), !,
    '$charon_kb_specs'(Specs0, Specs),
    forall(( member(Spec, Specs), '$charon_resolve'(Spec, File, Path) ),
           ( D = include(_) -> '$charon_src_from'(Path, M) ; '$charon_src_from'(Path, user) )).
'$charon_src_term'((:- _), _, _, M, M) :- !.
'$charon_src_term'((_ --> _), _, _, M, M) :- !.
'$charon_src_term'((H0 :- B), _, At, M0, M0) :- !,
    '$charon_head'(H0, M0, M, H), '$charon_src_add'(M, H, B, At).
'$charon_src_term'(H0, _, At, M0, M0) :-
    '$charon_head'(H0, M0, M, H), '$charon_src_add'(M, H, true, At).

'$charon_src_add'(M, H, B, At) :-
    (   callable(H)
    ->  functor(H, N, A),
        (   '$charon_src_pred'(N, A, M) -> true
        ;   call(assertz, '$charon_src_pred'(N, A, M))
        ),
        call(assertz, '$charon_src'(M, H, B, At))
    ;   true
    ).

'$charon_x'(G, _, _, _) :- var(G), !,
    throw(charon_explain(unsupported(call/1))).
'$charon_x'(M:G, _, D, P) :- !,
    (   atom(M) -> '$charon_x'(G, M, D, P)
    ;   throw(charon_explain(unsupported((:)/2)))
    ).
'$charon_x'(\+ G, M, D, n(negation, T, [])) :- !,
    \+ '$charon_x'(G, M, D, _),
    '$charon_show'(\+ G, T).
'$charon_x'(once(G), M, D, P) :- !,
    once('$charon_x'(G, M, D, P)).
'$charon_x'(G, M, D, P) :-
    (   callable(G) -> functor(G, N, A)
    ;   throw(charon_explain(unsupported(call/1)))
    ),
    (   '$charon_x_own'(G, N, A, M, M1, Live)
    ->  '$charon_x_clause'(G, M1, Live, D, P)
    ;   '$charon_x_builtin'(N, A)
    ->  call(G), '$charon_show'(G, T), P = n(builtin, T, [])
    ;   throw(charon_explain(unsupported(N/A)))
    ).

% The knowledge base's own predicate: a dynamic one of module M (read live), or
% one the file defines (in M if it does, else the module that does).
'$charon_x_own'(G, N, _, M, M, live) :-
    \+ atom_concat('$charon', _, N),
    (   M == user -> predicate_property(G, dynamic)
    ;   predicate_property(M:G, dynamic)
    ), !.
'$charon_x_own'(_, N, A, M, M1, file) :-
    (   '$charon_src_pred'(N, A, M) -> M1 = M
    ;   '$charon_src_pred'(N, A, M1)
    ), !.

'$charon_x_clause'(G, M, Live, D, P) :-
    (   D > 0 -> D1 is D - 1
    ;   throw(charon_explain(depth))
    ),
    (   Live == live -> '$charon_clause'(M, G, B), At = live
    ;   '$charon_src'(M, G, B, At)
    ),
    (   B == true
    ->  '$charon_show'(G, T), P = n(fact, T, [], At)
    ;   '$charon_xb'(B, M, D1, Ps, []),
        '$charon_show'(G, T), P = n(rule, T, Ps, At)
    ).

'$charon_xb'(B, _, _, _, _) :- var(B), !,
    throw(charon_explain(unsupported(call/1))).
'$charon_xb'((A, B), M, D, Ps, T) :- !,
    '$charon_xb'(A, M, D, Ps, T1),
    '$charon_xb'(B, M, D, T1, T).
'$charon_xb'(true, _, _, T, T) :- !.
'$charon_xb'(G, M, D, [P|T], T) :- '$charon_x'(G, M, D, P).

% '$charon_traceable'(+File, +Goals, -Traceable): the goals among Goals (one
% template per operation) whose every reachable clause stays inside the subset
% above, checked without running anything (the clauses of dynamic predicates as
% they are now).
'$charon_traceable'(File, Gs, Ok) :-
    '$charon_src_load'(File),
    findall(G, ( member(G, Gs), '$charon_t_goal'(G, user, [], _) ), Ok).

'$charon_t_goal'(G, _, _, _) :- var(G), !, fail.
'$charon_t_goal'(M:G, _, V0, V) :- !, atom(M), '$charon_t_goal'(G, M, V0, V).
'$charon_t_goal'((A, B), M, V0, V) :- !,
    '$charon_t_goal'(A, M, V0, V1), '$charon_t_goal'(B, M, V1, V).
'$charon_t_goal'(\+ A, M, V0, V) :- !, '$charon_t_one'(A), '$charon_t_goal'(A, M, V0, V).
'$charon_t_goal'(once(A), M, V0, V) :- !, '$charon_t_one'(A), '$charon_t_goal'(A, M, V0, V).
'$charon_t_goal'(G, M, V0, V) :-
    callable(G), functor(G, N, A),
    (   '$charon_x_own'(G, N, A, M, M1, Live)
    ->  (   memberchk(M1:N/A, V0) -> V = V0
        ;   functor(H, N, A),
            findall(B, ( Live == live -> '$charon_clause'(M1, H, B)
                       ; '$charon_src'(M1, H, B, _) ), Bs),
            '$charon_t_bodies'(Bs, M1, [M1:N/A|V0], V)
        )
    ;   '$charon_x_builtin'(N, A), V = V0
    ).
% Under \+ and once/1 the tracer takes one goal, not a conjunction.
'$charon_t_one'(A) :- nonvar(A), A \= (_, _).
'$charon_t_bodies'([], _, V, V).
'$charon_t_bodies'([B|Bs], M, V0, V) :-
    '$charon_t_goal'(B, M, V0, V1), '$charon_t_bodies'(Bs, M, V1, V).

% Built-ins a proof may show as steps: tests, comparisons, arithmetic, term and
% atom inspection, list library predicates. None changes anything or calls a goal.
'$charon_x_builtin'(N, A) :- '$charon_x_pure'(N, A), !.
'$charon_x_pure'(true, 0).
'$charon_x_pure'(fail, 0).
'$charon_x_pure'(false, 0).
'$charon_x_pure'(=, 2).
'$charon_x_pure'(\=, 2).
'$charon_x_pure'(==, 2).
'$charon_x_pure'(\==, 2).
'$charon_x_pure'(@<, 2).
'$charon_x_pure'(@>, 2).
'$charon_x_pure'(@=<, 2).
'$charon_x_pure'(@>=, 2).
'$charon_x_pure'(compare, 3).
'$charon_x_pure'(<, 2).
'$charon_x_pure'(>, 2).
'$charon_x_pure'(=<, 2).
'$charon_x_pure'(>=, 2).
'$charon_x_pure'(=:=, 2).
'$charon_x_pure'(=\=, 2).
'$charon_x_pure'(is, 2).
'$charon_x_pure'(var, 1).
'$charon_x_pure'(nonvar, 1).
'$charon_x_pure'(atom, 1).
'$charon_x_pure'(number, 1).
'$charon_x_pure'(integer, 1).
'$charon_x_pure'(float, 1).
'$charon_x_pure'(atomic, 1).
'$charon_x_pure'(compound, 1).
'$charon_x_pure'(callable, 1).
'$charon_x_pure'(is_list, 1).
'$charon_x_pure'(ground, 1).
'$charon_x_pure'(functor, 3).
'$charon_x_pure'(arg, 3).
'$charon_x_pure'(=.., 2).
'$charon_x_pure'(copy_term, 2).
'$charon_x_pure'(atom_codes, 2).
'$charon_x_pure'(atom_chars, 2).
'$charon_x_pure'(char_code, 2).
'$charon_x_pure'(atom_length, 2).
'$charon_x_pure'(atom_concat, 3).
'$charon_x_pure'(sub_atom, 5).
'$charon_x_pure'(number_codes, 2).
'$charon_x_pure'(number_chars, 2).
'$charon_x_pure'(atom_number, 2).
'$charon_x_pure'(member, 2).
'$charon_x_pure'(memberchk, 2).
'$charon_x_pure'(append, 3).
'$charon_x_pure'(length, 2).
'$charon_x_pure'(nth0, 3).
'$charon_x_pure'(nth1, 3).
'$charon_x_pure'(last, 2).
'$charon_x_pure'(reverse, 2).
'$charon_x_pure'(msort, 2).
'$charon_x_pure'(sort, 2).
'$charon_x_pure'(keysort, 2).
'$charon_x_pure'(sum_list, 2).
'$charon_x_pure'(max_list, 2).
'$charon_x_pure'(min_list, 2).
'$charon_x_pure'(list_to_set, 2).
'$charon_x_pure'(select, 3).
'$charon_x_pure'(between, 3).
'$charon_x_pure'(succ, 2).
'$charon_x_pure'(dif, 2).

