% ---------------------------------------------------------------------------
% Reading the knowledge base for the analysis of what its operations may do.

% '$charon_note_ops': remembers the operator table as it is before the knowledge
% base loads, so that the reader starts from the same table as the loader.
'$charon_note_ops' :-
    retractall('$charon_initial_op'(_, _, _)),
    forall(current_op(P, T, N), assertz('$charon_initial_op'(P, T, N))).

'$charon_set_ops'(Ops) :-
    forall(( current_op(P, T, N), \+ member(op(P, T, N), Ops) ),
           catch(op(0, T, N), _, true)),
    forall(member(op(P, T, N), Ops), catch(op(P, T, N), _, true)).

% '$charon_analyse'(+File, +Source, -Items): what the analysis needs from File and the local
% files it loads, read as the loader reads them (operator directives applied as
% they come, rules rewritten as loaded). Items:
%   rule(M, Name, Arity, Body, Head)  a rule of module M, its head's arguments in
%                             Head (args(A1, …), sharing variables with Body; none
%                             for a DCG rule, whose body is dcg(Body))
%   defined(M, Name, Arity)     a predicate with clauses or a dynamic declaration
%   main(M)                   the module of File itself (user if it is none)
%   module(M)                 a module a file declares
%   directive(M, Goal)        another directive (it may add rules at load)
%   undefined(M, Name, Arity)  a goal of a rule or directive of module M that
%                             nothing defines now the knowledge base has loaded
%   problem(Text)             why the file could not be read fully
% The text of File itself is read from Source: File, or File with the runs of
% facts cut short (see `analysis_text` in engine/mod.rs). The operator table is
% put back as it was afterwards.
'$charon_analyse'(File, Source, Items) :-
    findall(op(P, T, N), current_op(P, T, N), After),
    retractall('$charon_after_op'(_, _, _)),
    forall(member(op(P, T, N), After), assertz('$charon_after_op'(P, T, N))),
    findall(op(P, T, N), '$charon_initial_op'(P, T, N), Before),
    '$charon_set_ops'(Before),
    catch(( '$charon_main_module'(File, Main),
            open(Source, read, S),
            '$charon_read_terms'(S, File, user, [File], _, none, Items0, []),
            close(S) ), E,
          ( '$charon_show'(E, A), Items0 = [problem(A)] )),
    '$charon_set_ops'(After),
    ( var(Main) -> Main = user ; true ),
    catch('$charon_undefined_items'(Items0, Us), _, Us = []),
    append(Items0, Us, Items1),
    Items = [main(Main)|Items1].

% '$charon_undefined_items'(+Items, -Us): undefined(M, N, A) for each goal N/A
% that a rule or directive among Items calls in module M (the clause's module, or
% the one a qualification names), where neither M nor user has it: no clauses, no
% dynamic declaration, not imported, not a builtin. Calling it raises an
% existence error, unless something defines it later, which the analysis in Rust
% checks. Goals are looked for where the analysis looks for them (control
% constructs, the goal arguments of the meta-predicates it knows, DCG bodies); a
% call found only there stays unknown to it, which fails closed. Names starting
% with $ are left out: the engine compiles some of those to instructions that no
% lookup finds.
'$charon_undefined_items'(Items, Us) :-
    findall(undefined(M, N, A),
            ( member(I, Items),
              '$charon_item_called'(I, M, N, A),
              '$charon_undefined'(M, N, A) ),
            Us0),
    sort(Us0, Us).

'$charon_item_called'(rule(M0, _, _, B, _), M, N, A) :-
    (   nonvar(B), B = dcg(D)
    ->  '$charon_dcg_called'(D, M0, M, N, A)
    ;   '$charon_called'(B, M0, 0, M, N, A)
    ).
'$charon_item_called'(directive(M0, D), M, N, A) :-
    '$charon_called'(D, M0, 0, M, N, A).

% '$charon_called'(+G, +M0, +E, -M, -N, -A): calling G in module M0 with E more
% arguments may call N/A in M (on backtracking, every such goal).
'$charon_called'(G, _, _, _, _, _) :- var(G), !, fail.
'$charon_called'(M1:G, M0, E, M, N, A) :- !,
    ( atom(M1) -> M2 = M1 ; M2 = M0 ),
    '$charon_called'(G, M2, E, M, N, A).
'$charon_called'(G, M0, 0, M, N, A) :-
    '$charon_control_goals'(G, Gs), !,
    member(G1, Gs),
    '$charon_called'(G1, M0, 0, M, N, A).
'$charon_called'(G, M0, E, M, N, A) :-
    callable(G),
    functor(G, F, A0),
    A1 is A0 + E,
    (   M = M0, N = F, A = A1
    ;   A0 > 0, '$charon_meta_arg'(F, A1, A0, E, E1),
        arg(1, G, G1),
        '$charon_called'(G1, M0, E1, M, N, A)
    ).

% The goals a control construct runs (its other arguments are data).
'$charon_control_goals'((A, B), [A, B]).
'$charon_control_goals'((A ; B), [A, B]).
'$charon_control_goals'((A -> B), [A, B]).
'$charon_control_goals'('*->'(A, B), [A, B]).
'$charon_control_goals'('|'(A, B), [A, B]).
'$charon_control_goals'(\+ A, [A]).
'$charon_control_goals'(call(A), [A]).
'$charon_control_goals'(once(A), [A]).
'$charon_control_goals'(ignore(A), [A]).
'$charon_control_goals'(forall(A, B), [A, B]).
'$charon_control_goals'(call_cleanup(A, B), [A, B]).
'$charon_control_goals'(setup_call_cleanup(A, B, C), [A, B, C]).
'$charon_control_goals'(findall(_, G, _), [G1]) :- '$charon_strip_carets'(G, G1).
'$charon_control_goals'(findall(_, G, _, _), [G1]) :- '$charon_strip_carets'(G, G1).
'$charon_control_goals'(aggregate_all(_, G, _), [G1]) :- '$charon_strip_carets'(G, G1).
'$charon_control_goals'(bagof(_, G, _), [G1]) :- '$charon_strip_carets'(G, G1).
'$charon_control_goals'(setof(_, G, _), [G1]) :- '$charon_strip_carets'(G, G1).
'$charon_control_goals'(_ ^ G, [G]).
'$charon_control_goals'(initialization(G), [G]).
'$charon_control_goals'(initialization(G, _), [G]).
'$charon_control_goals'(catch(G, _, R), [G, R]).
'$charon_control_goals'(call_with_inference_limit(G, _, _), [G]).

'$charon_strip_carets'(G0, G) :-
    ( nonvar(G0), G0 = _ ^ G1 -> '$charon_strip_carets'(G1, G) ; G = G0 ).

% '$charon_meta_arg'(+Name, +Arity, +Args, +E0, -E): the first argument of a call
% of Name/Arity (Args of them written, the rest added) is a goal called with E
% more arguments.
'$charon_meta_arg'(call, A, A0, E0, E) :- A > 1, E is E0 + A0 - 1.
'$charon_meta_arg'(phrase, A, _, E0, E) :- ( A =:= 2 ; A =:= 3 ), E is E0 + 2.
'$charon_meta_arg'(maplist, A, A0, E0, E) :- A >= 2, A =< 8, E is E0 + A0 - 1.
'$charon_meta_arg'(foldl, A, A0, E0, E) :- A >= 4, A =< 7, E is E0 + A0 - 1.
'$charon_meta_arg'(include, 3, _, E0, E) :- E is E0 + 1.
'$charon_meta_arg'(exclude, 3, _, E0, E) :- E is E0 + 1.
'$charon_meta_arg'(partition, 4, _, E0, E) :- E is E0 + 1.
'$charon_meta_arg'(predsort, 3, _, E0, E) :- E is E0 + 3.

% The goals of a DCG body: non-terminals get two more arguments.
'$charon_dcg_called'(B, _, _, _, _) :- var(B), !, fail.
'$charon_dcg_called'((X, Y), M0, M, N, A) :- !,
    ( '$charon_dcg_called'(X, M0, M, N, A) ; '$charon_dcg_called'(Y, M0, M, N, A) ).
'$charon_dcg_called'((X ; Y), M0, M, N, A) :- !,
    ( '$charon_dcg_called'(X, M0, M, N, A) ; '$charon_dcg_called'(Y, M0, M, N, A) ).
'$charon_dcg_called'('|'(X, Y), M0, M, N, A) :- !,
    ( '$charon_dcg_called'(X, M0, M, N, A) ; '$charon_dcg_called'(Y, M0, M, N, A) ).
'$charon_dcg_called'((X -> Y), M0, M, N, A) :- !,
    ( '$charon_dcg_called'(X, M0, M, N, A) ; '$charon_dcg_called'(Y, M0, M, N, A) ).
'$charon_dcg_called'(\+ X, M0, M, N, A) :- !, '$charon_dcg_called'(X, M0, M, N, A).
'$charon_dcg_called'({G}, M0, M, N, A) :- !, '$charon_called'(G, M0, 0, M, N, A).
'$charon_dcg_called'(B, _, _, _, _) :- ( B == ! ; B == [] ; B = [_|_] ), !, fail.
'$charon_dcg_called'(B, M0, M, N, A) :- '$charon_called'(B, M0, 2, M, N, A).

% N/A is no predicate of M nor of user (no clauses, not dynamic, not imported,
% not a builtin).
'$charon_undefined'(M, N, A) :-
    atom(M), atom(N), \+ atom_concat('$', _, N),
    functor(H, N, A),
    '$charon_no_such'(M, H),
    '$charon_no_such'(user, H),
    \+ catch(predicate_property(M:H, dynamic), _, fail),
    \+ catch(predicate_property(user:H, dynamic), _, fail).
% Compiled as a direct call: scryer 0.10 finds this system predicate only so.
'$charon_no_such'(M, H) :- '$no_such_predicate'(M, H).

% The module File declares in its first term, or user.
'$charon_main_module'(File, M) :-
    open(File, read, S),
    catch('$charon_next_term'(S, T), _, T = none),
    close(S),
    ( nonvar(T), T = (:- module(M0, _)), atom(M0) -> M = M0 ; M = user ).

% '$charon_next_term'(+S, -T): the next term of S, end_of_file at the end, as the
% loader reads it: layout and comments are skipped first, so that a comment at the
% end of a file is not a syntax error (read_term/3 alone reports one there).
'$charon_next_term'(S, T) :-
    (   '$devour_whitespace'(S) -> read_term(S, T, []) ; T = end_of_file ).

'$charon_read_file'(File, _, Seen, Seen, T, T) :- member(File, Seen), !.
'$charon_read_file'(File, M0, Seen0, Seen, Items, T) :-
    open(File, read, S),
    '$charon_read_terms'(S, File, M0, [File|Seen0], Seen, none, Items, T),
    close(S).

'$charon_read_terms'(S, File, M, Seen0, Seen, Last, Items, T) :-
    '$charon_next_term'(S, C),
    (   C == end_of_file -> Seen = Seen0, Items = T
    ;   '$charon_item'(C, File, M, M1, Seen0, Seen1, Last, Last1, Items, Items1),
        '$charon_read_terms'(S, File, M1, Seen1, Seen, Last1, Items1, T)
    ).

'$charon_item'((:- D), File, M0, M, Seen0, Seen, L, L, Items, T) :- !,
    '$charon_directive'(D, File, M0, M, Seen0, Seen, Items, T).
'$charon_item'(C0, _, M, M, Seen, Seen, L0, L, Items, T) :-
    ( '$charon_expand'(C0, M, C) -> true ; C = C0 ),
    '$charon_clause'(C, M, L0, L, Items, T).

'$charon_clause'((H0 --> B), M0, L0, L, Items, T) :- !,
    '$charon_head'(H0, M0, M, H),
    (   callable(H)
    ->  functor(H, N, A0), A is A0 + 2,
        Items = [rule(M, N, A, dcg(B), none)|T1],
        '$charon_defined'(M:N/A, L0, L, T1, T)
    ;   L = L0, Items = T
    ).
'$charon_clause'((H0 :- B), M0, L0, L, Items, T) :- !,
    '$charon_head'(H0, M0, M, H),
    (   callable(H)
    ->  functor(H, N, A),
        H =.. [_|As],
        Args =.. [args|As],
        Items = [rule(M, N, A, B, Args)|T1],
        '$charon_defined'(M:N/A, L0, L, T1, T)
    ;   L = L0, Items = T
    ).
'$charon_clause'(H0, M0, L0, L, Items, T) :-
    '$charon_head'(H0, M0, M, H),
    (   callable(H)
    ->  functor(H, N, A),
        '$charon_defined'(M:N/A, L0, L, Items, T)
    ;   L = L0, Items = T
    ).
% The head of a clause and the module it goes to.
'$charon_head'(H0, M0, M, H) :-
    (   nonvar(H0), H0 = M1:H1
    ->  ( atom(M1) -> M2 = M1 ; M2 = M0 ),
        '$charon_head'(H1, M2, M, H)
    ;   M = M0, H = H0
    ).
% Facts come in runs: one item per run, not per fact.
'$charon_defined'(PI, L, L, T, T) :- PI == L, !.
'$charon_defined'(M:N/A, _, M:N/A, [defined(M, N, A)|T], T).

'$charon_directive'(V, _, M, M, Seen, Seen, T, T) :- var(V), !.
'$charon_directive'(module(M, Exports), _, _, M, Seen, Seen, [module(M)|T], T) :- !,
    forall(( member(E, Exports), nonvar(E), E = op(P, Ty, N) ),
           catch(op(P, Ty, N), _, true)).
'$charon_directive'(op(P, Ty, N), _, M, M, Seen, Seen, T, T) :- !,
    catch(op(P, Ty, N), _, true).
'$charon_directive'(dynamic(Spec), _, M, M, Seen, Seen, Items, T) :- !,
    '$charon_specs'(Spec, M, Items, T).
% Declarations: a discontiguous or multifile predicate is one the knowledge base
% defines; the other declarations run no goal.
'$charon_directive'(discontiguous(Spec), _, M, M, Seen, Seen, Items, T) :- !,
    '$charon_specs'(Spec, M, Items, T).
'$charon_directive'(multifile(Spec), _, M, M, Seen, Seen, Items, T) :- !,
    '$charon_specs'(Spec, M, Items, T).
'$charon_directive'(meta_predicate(_), _, M, M, Seen, Seen, T, T) :- !.
'$charon_directive'(non_counted_backtracking(_), _, M, M, Seen, Seen, T, T) :- !.
'$charon_directive'(D, File, M, M, Seen0, Seen, Items, T) :-
    '$charon_loads'(D, Specs), !,
    '$charon_load_specs'(Specs, File, M, Seen0, Seen, Items, T).
% Other directives run once, at load, in every worker alike; what matters is the
% rules they may add, so their goals are analysed too.
'$charon_directive'(D, _, M, M, Seen, Seen, [directive(M, D)|T], T).

'$charon_specs'(V, _, T, T) :- var(V), !.
'$charon_specs'((A, B), M, Items, T) :- !,
    '$charon_specs'(A, M, Items, T1), '$charon_specs'(B, M, T1, T).
'$charon_specs'([], _, T, T) :- !.
'$charon_specs'([S|Ss], M, Items, T) :- !,
    '$charon_specs'(S, M, Items, T1), '$charon_specs'(Ss, M, T1, T).
'$charon_specs'(M1:S, M, Items, T) :- !,
    ( atom(M1) -> M2 = M1 ; M2 = M ), '$charon_specs'(S, M2, Items, T).
'$charon_specs'(N/A, M, [defined(M, N, A)|T], T) :- atom(N), integer(A), !.
'$charon_specs'(_, _, T, T).

'$charon_loads'(use_module(S), [S]).
'$charon_loads'(use_module(S, _), [S]).
'$charon_loads'(ensure_loaded(S), [S]).
'$charon_loads'(consult(S), [S]).
'$charon_loads'(include(S), [S]).
'$charon_loads'([S|Ss], [S|Ss]).

'$charon_load_specs'([], _, _, Seen, Seen, T, T).
'$charon_load_specs'([S|Ss], File, M, Seen0, Seen, Items, T) :-
    '$charon_load_spec'(S, File, M, Seen0, Seen1, Items, T1),
    '$charon_load_specs'(Ss, File, M, Seen1, Seen, T1, T).
% A library's operators are in the table after loading: apply those the table
% did not have before the knowledge base loaded.
'$charon_load_spec'(library(_), _, _, Seen, Seen, T, T) :- !,
    forall(( '$charon_after_op'(P, Ty, N), \+ '$charon_initial_op'(P, Ty, N) ),
           catch(op(P, Ty, N), _, true)).
'$charon_load_spec'(S, File, M, Seen0, Seen, Items, T) :-
    '$charon_resolve'(S, File, Path), !,
    '$charon_read_file'(Path, M, Seen0, Seen, Items, T).
'$charon_load_spec'(S, _, _, Seen, Seen, [problem(A)|T], T) :-
    '$charon_show'(S, A0),
    atom_concat('cannot find the loaded file ', A0, A).
'$charon_show'(T, A) :-
    write_term_to_chars(T, [quoted(true)], Cs),
    atom_chars(A, Cs).

'$charon_resolve'(S0, File, Path) :-
    (   atom(S0) -> S = S0
    ;   S0 = _/_, catch(loader:path_atom(S0, S), _, fail)
    ),
    atom_chars(S, Cs0),
    (   Cs0 = ['/'|_] -> Cs1 = Cs0
    ;   atom_chars(File, Fs), '$charon_dir'(Fs, Dir), append(Dir, Cs0, Cs1)
    ),
    '$charon_normal'(Cs1, Cs2),
    (   append(_, ".pl", Cs2) -> Cs = Cs2 ; append(Cs2, ".pl", Cs) ; Cs = Cs2 ),
    file_exists(Cs), !,
    atom_chars(Path, Cs).

% '$charon_normal'(+Path, -Normal): `.` and `..` segments resolved (as text), so
% that one file has one name: include cycles, ensure_loaded and the tracer's
% reading compare names.
'$charon_normal'(Cs, Normal) :-
    (   Cs = ['/'|Rest] -> Lead = ['/'] ; Rest = Cs, Lead = [] ),
    '$charon_segments'(Rest, Segs),
    '$charon_fold'(Segs, [], Kept),
    reverse(Kept, Ordered),
    '$charon_join'(Ordered, Joined),
    append(Lead, Joined, Normal).

'$charon_segments'(Cs, Segs) :-
    (   append(Seg, ['/'|Rest], Cs) -> Segs = [Seg|Segs1], '$charon_segments'(Rest, Segs1)
    ;   Segs = [Cs]
    ).

'$charon_fold'([], Kept, Kept).
'$charon_fold'([S|Ss], Kept0, Kept) :-
    (   S == [] -> Kept1 = Kept0
    ;   S == ['.'] -> Kept1 = Kept0
    ;   S == ['.', '.'], Kept0 = [K|Ks], K \== ['.', '.'] -> Kept1 = Ks
    ;   Kept1 = [S|Kept0]
    ),
    '$charon_fold'(Ss, Kept1, Kept).

'$charon_join'([], []).
'$charon_join'([S], S) :- !.
'$charon_join'([S|Ss], Cs) :-
    '$charon_join'(Ss, Cs1),
    append(S, ['/'|Cs1], Cs).
% The directory part of a path, with its trailing slash.
'$charon_dir'(Fs, Dir) :-
    (   append(Dir, Base, Fs), \+ member('/', Base) -> true ; Dir = [] ).

