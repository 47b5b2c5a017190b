% Charon's side of the engine, consulted into `user` before the knowledge base.
% Every call runs through '$charon_once'/4 or '$charon_all'/5, so no exception ever
% escapes to the top level (scryer keeps returning a stale exception after one does)
% and every goal is bounded by an inference limit.

:- use_module(library(iso_ext)).
:- use_module(library(lists)).
:- use_module(library(between)).
:- use_module(library(format)).

% '$charon_once'(+Template, +Goal, +Limit, -Result)
% Result: ok(Template) | false | limit | exception(E).
'$charon_once'(T, G, Lim, R) :-
    (   catch(call_with_inference_limit(G, Lim, R0), E, true)
    ->  (   nonvar(E) -> R = exception(E)
        ;   R0 == inference_limit_exceeded -> R = limit
        ;   R = ok(T)
        )
    ;   R = false
    ),
    flush_output.

% '$charon_all'(+Template, +Goal, +Limit, +Max, -Result)
% Result: ok(List) | limit | too_many | exception(E).
'$charon_all'(T, G, Lim, Max, R) :-
    (   catch(call_with_inference_limit(findall(T, G, L), Lim, R0), E, true)
    ->  (   nonvar(E) -> R = exception(E)
        ;   R0 == inference_limit_exceeded -> R = limit
        ;   length(L, N), N > Max -> R = too_many
        ;   R = ok(L)
        )
    ;   R = ok([])
    ),
    flush_output.

% '$charon_floats'(+Goal): calls Goal after turning every '$charon_f'(M, E) in it
% into the float M * 2^E. scryer reads float literals lossily; this is exact.
'$charon_floats'(G0) :-
    '$charon_exact'(G0, G),
    call(G).
'$charon_exact'(T0, T) :-
    (   compound(T0), T0 = '$charon_f'(M, E), integer(M), integer(E)
    ->  T is M * 2.0 ** E
    ;   compound(T0)
    ->  T0 =.. [F|As0],
        '$charon_exact_list'(As0, As),
        T =.. [F|As]
    ;   T = T0
    ).
'$charon_exact_list'([], []).
'$charon_exact_list'([A0|As0], [A|As]) :-
    '$charon_exact'(A0, A),
    '$charon_exact_list'(As0, As).

% The knowledge base's dynamic predicates (Charon's own excluded).
'$charon_dynamic'(H) :-
    current_predicate(N/A),
    \+ atom_concat('$charon', _, N),
    functor(H, N, A),
    predicate_property(H, dynamic).

% '$charon_dump'(+File, -Result): writes every dynamic clause to File.
'$charon_dump'(File, R) :-
    catch('$charon_dump_'(File), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
'$charon_dump_'(File) :-
    open(File, write, S),
    forall('$charon_dynamic'(H),
           ( functor(H, N, A),
             portray_clause(S, '$charon_decl'(N/A)),
             forall(clause(H, B), portray_clause(S, (H :- B))) )),
    close(S).

% '$charon_restore'(+File, -Result): replaces the dynamic database with File's.
'$charon_restore'(File, R) :-
    catch('$charon_restore_'(File), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
'$charon_restore_'(File) :-
    forall('$charon_dynamic'(H), retractall(H)),
    open(File, read, S),
    '$charon_load_terms'(S),
    close(S).
'$charon_load_terms'(S) :-
    read_term(S, T, []),
    (   T == end_of_file -> true
    ;   '$charon_restore_term'(T),
        '$charon_load_terms'(S)
    ).
% Declares N/A dynamic (dynamic/1 is a directive only in scryer).
'$charon_restore_term'('$charon_decl'(N/A)) :- !, functor(H, N, A), assertz(H), retract(H).
'$charon_restore_term'((H :- true)) :- !, assertz(H).
'$charon_restore_term'(C) :- assertz(C).

% '$charon_rule'(+File, -Name, -Arity, -Body): the rules of File, for the analysis
% of which operations can change the database.
'$charon_rule'(File, N, A, B) :-
    catch('$charon_rules'(File, Rs), _, Rs = []),
    member(N-A-B, Rs).
'$charon_rules'(File, Rs) :-
    open(File, read, S),
    '$charon_read_rules'(S, Rs),
    close(S).
'$charon_read_rules'(S, Rs) :-
    read_term(S, T, []),
    (   T == end_of_file -> Rs = []
    ;   '$charon_rule_of'(T, Rs, Rs1),
        '$charon_read_rules'(S, Rs1)
    ).
'$charon_rule_of'((H :- B), [N-A-B|T], T) :- callable(H), !, functor(H, N, A).
'$charon_rule_of'((H --> B), [N-A-dcg(B)|T], T) :- callable(H), !, functor(H, N, A0), A is A0 + 2.
'$charon_rule_of'(_, T, T).
