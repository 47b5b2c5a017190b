% ---------------------------------------------------------------------------
% State that calls change, and how a change reaches the other workers.
%
% The knowledge base is loaded with its rules rewritten (term expansion at the end
% of this file): a direct call of assertz/1, asserta/1, retract/1, retractall/1 or
% bb_put/2 becomes a call of the '$charon_j_*' predicate below, which makes the
% change and records it. After a write, the engine takes the record
% ('$charon_changes'/1) and replays it on the other workers ('$charon_replay'/2).
% What the rewriting cannot reach (a mutator called through a variable or a
% closure) the analysis in Rust classes as a write replicated by a full dump.

:- dynamic('$charon_change'/1).
:- dynamic('$charon_module'/1).
:- dynamic('$charon_bb_key'/1).
:- dynamic('$charon_initial_op'/3).
:- dynamic('$charon_after_op'/3).
:- dynamic('$charon_restored'/2).

'$charon_log'(E) :- assertz('$charon_change'(E)), '$charon_note'(E).

% '$charon_loose'(+Name, +Arity, +J, +Modules): some clause of Name/Arity in one of
% Modules has an argument J that is not atomic — or its clauses cannot be looked
% at (the answer cache then keeps no key for removals from it: see
% cache::Freshness).
% A dynamic predicate's clauses are read from the clause store as the dumps read
% them ('$charon_clause'/3): clause/2 would first copy every clause for the logical
% update view, and the worker would keep the heap that took (40 MB at 100,000
% facts, 220 MB at a million). Nothing changes while this runs.
'$charon_loose'(N, A, J, Ms) :-
    functor(H, N, A),
    member(M, Ms),
    catch(( '$charon_clause_of'(M, H), arg(J, H, X), \+ atomic(X) ), _, true),
    !.

'$charon_clause_of'(M, H) :-
    (   M == user -> predicate_property(H, dynamic) ; predicate_property(M:H, dynamic) ),
    !,
    '$charon_clause'(M, H, _).
% (clause(user:H, B) raises an existence error in scryer 0.10.)
'$charon_clause_of'(user, H) :- !, clause(H, _).
'$charon_clause_of'(M, H) :- M:clause(H, _).

% What a dump must cover beyond the declared modules: every module a change
% touched, and every blackboard key.
'$charon_note'(bb_put(K, _)) :- !,
    ( '$charon_bb_key'(K) -> true ; assertz('$charon_bb_key'(K)) ).
'$charon_note'(E) :-
    arg(1, E, M:_),
    (   atom(M), \+ '$charon_module'(M) -> assertz('$charon_module'(M)) ; true ).

% The clause's own qualification wins over the module the call was made in.
'$charon_j_assertz'(M0, C0) :-
    strip_module(M0:C0, M, C), assertz(M:C), '$charon_log'(assertz(M:C)).
'$charon_j_asserta'(M0, C0) :-
    strip_module(M0:C0, M, C), asserta(M:C), '$charon_log'(asserta(M:C)).
'$charon_j_retract'(M0, C0) :-
    strip_module(M0:C0, M, C), retract(M:C), '$charon_log'(retract(M:C)).
'$charon_j_retractall'(M0, H0) :-
    strip_module(M0:H0, M, H), retractall(M:H), '$charon_log'(retractall(M:H)).
'$charon_j_bb_put'(K, V) :- bb_put(K, V), '$charon_log'(bb_put(K, V)).

% '$charon_changes'(-Chars): the changes recorded since the last call, as text
% ("[]" when there are none); the record is cleared.
'$charon_changes'(Cs) :-
    findall(E, retract('$charon_change'(E)), Es),
    '$charon_text'(Es, Cs).

% '$charon_replay'(+Chars, -Result): applies changes taken from another worker
% (a list of lists of changes, oldest first). Result: ok | exception(E).
'$charon_replay'(Cs, R) :-
    catch(( '$charon_read_text'(Cs, Ess), '$charon_apply_all'(Ess) ), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
'$charon_apply_all'([]).
'$charon_apply_all'([Es|Ess]) :- '$charon_apply'(Es), '$charon_apply_all'(Ess).
'$charon_apply'([]).
'$charon_apply'([E|Es]) :-
    (   call(E) -> '$charon_note'(E)
    ;   throw(error(charon_replay_failed(E), '$charon_replay'/2))
    ),
    '$charon_apply'(Es).

% The dynamic predicates of module M (Charon's own excluded).
'$charon_dynamic'(M, H) :-
    (   M == user
    ->  current_predicate(N/A), functor(H, N, A), predicate_property(H, dynamic)
    ;   current_predicate(M:N/A), functor(H, N, A), predicate_property(M:H, dynamic)
    ),
    \+ atom_concat('$charon', _, N).

% The clauses of M's dynamic predicate H, for Charon's own dumps and listings, which
% change nothing while they run: read from the engine's clause store without the
% copy of every matching clause that clause/2 takes for the logical update view
% (vendor/scryer-prolog/CHARON.md), which for a million facts would hold them all a
% second time. '$clause_candidates'/3 lists where each clause is, in clause order
% (two integers a clause), and '$invoke_clause_at_p'/6 reads one: a fact from its
% own code, a rule from its '$clause'/2 entry (CHARON.md item 26). Where the
% engine cannot list them so (code laid out as no load or assert lays it out), the
% entries of '$clause'/2, as retract/1 falls back to them; a module has no
% '$clause'/2 until one of its clauses needs an entry.
'$charon_clause'(M, H, B) :-
    (   '$clause_candidates'(H, M, LPs)
    ->  '$charon_clause_in'(LPs, H, B, M)
    ;   '$charon_clause_entry'(M, H, B)
    ).
'$charon_clause_entry'(user, H, B) :- !, builtins:'$clause'(H, B).
'$charon_clause_entry'(M, H, B) :-
    catch(M:'$clause'(H, B), error(existence_error(procedure, '$clause'/2), _), fail).
'$charon_clause_in'([L-P|LPs], H, B, M) :-
    (   '$invoke_clause_at_p'(H, B, L, P, _, M)
    ;   '$charon_clause_in'(LPs, H, B, M)
    ).

'$charon_modules'(Ms0, Ms) :-
    findall(M, '$charon_module'(M), Ms1),
    append([user|Ms0], Ms1, Ms2),
    sort(Ms2, Ms).

% '$charon_dump'(+File, +Modules, -Result): writes the dynamic clauses of user,
% Modules and every module a change touched, and the blackboard, to File.
'$charon_dump'(File, Ms, R) :-
    catch('$charon_dump_'(File, Ms), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
'$charon_dump_'(File, Ms0) :-
    '$charon_modules'(Ms0, Ms),
    open(File, write, S),
    forall(( member(M, Ms), '$charon_dynamic'(M, H) ),
           ( functor(H, N, A),
             '$charon_put'(S, decl(M, N/A)),
             forall('$charon_clause'(M, H, B), '$charon_put'(S, clause(M, (H :- B)))) )),
    forall(( '$charon_bb_key'(K), bb_get(K, V) ), '$charon_put'(S, bb(K, V))),
    close(S).
'$charon_put'(S, T) :-
    '$charon_text_form'(T, T1, Options),
    write_term(S, T1, Options),
    write(S, ' .'),
    nl(S).

% '$charon_snapshot'(+File, +Modules, -Result): writes the same state as
% '$charon_dump'/3, as change lists that recreate it on the knowledge base as loaded
% (the snapshot of a replicated log, applied like any record): for each dynamic
% predicate, retractall(M:H), then assertz(M:C) of each clause (or, for one with
% none, an assertz and a retract that declare it); then bb_put(K, V) of each key.
% One list of at most 256 changes per line, so that no replayed text is long.
'$charon_snapshot'(File, Ms, R) :-
    catch('$charon_snapshot_'(File, Ms), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
'$charon_snapshot_'(File, Ms0) :-
    '$charon_modules'(Ms0, Ms),
    setup_call_cleanup(
        open(File, write, S),
        ( forall(( member(M, Ms), '$charon_dynamic'(M, H0) ),
                 ( functor(H0, N, A), functor(H, N, A),
                   findall(assertz(M:(H :- B)), '$charon_clause'(M, H, B), Cs0),
                   ( Cs0 == [] -> Cs = [assertz(M:H), retract(M:H)] ; Cs = Cs0 ),
                   '$charon_put_parts'(S, [retractall(M:H)|Cs]) )),
          findall(bb_put(K, V), ( '$charon_bb_key'(K), bb_get(K, V) ), Bs),
          '$charon_put_parts'(S, Bs) ),
        close(S)).
'$charon_put_parts'(S, Cs) :-
    (   Cs == [] -> true
    ;   '$charon_take'(256, Cs, Part, Rest),
        '$charon_put'(S, Part),
        '$charon_put_parts'(S, Rest)
    ).
'$charon_take'(0, Cs, [], Cs) :- !.
'$charon_take'(_, [], [], []) :- !.
'$charon_take'(N, [C|Cs], [C|P], R) :- N1 is N - 1, '$charon_take'(N1, Cs, P, R).

% '$charon_restore'(+File, +Modules, -Result): replaces the dynamic database with
% File's.
'$charon_restore'(File, Ms, R) :-
    catch('$charon_restore_'(File, Ms), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
% A dynamic predicate the file does not declare was abolished where it was
% written, and is abolished here too: emptied, it would answer [] where the writer
% raises an existence error.
'$charon_restore_'(File, Ms0) :-
    '$charon_modules'(Ms0, Ms),
    findall(M-H, ( member(M, Ms), '$charon_dynamic'(M, H) ), Before),
    forall(member(M-H, Before), retractall(M:H)),
    retractall('$charon_restored'(_, _)),
    open(File, read, S),
    '$charon_load_terms'(S),
    close(S),
    forall(( member(M-H, Before), functor(H, N, A), \+ '$charon_restored'(M, N/A) ),
           abolish(M:N/A)),
    retractall('$charon_restored'(_, _)).
'$charon_load_terms'(S) :-
    read_term(S, T0, []),
    (   T0 == end_of_file -> true
    ;   '$charon_exact'(T0, T),
        '$charon_restore_term'(T),
        '$charon_load_terms'(S)
    ).
% Declares N/A dynamic in M (dynamic/1 is a directive only in scryer).
'$charon_restore_term'(decl(M, N/A)) :- !,
    functor(H, N, A), assertz(M:H), retract(M:H),
    assertz('$charon_restored'(M, N/A)),
    ( M == user -> true ; '$charon_note'(assertz(M:H)) ).
'$charon_restore_term'(clause(M, C)) :- !, assertz(M:C).
'$charon_restore_term'(bb(K, V)) :- bb_put(K, V), '$charon_note'(bb_put(K, V)).

% '$charon_listing'(+File, +Module, +Which, -Result): writes the clauses of the
% dynamic predicates of Module named in Which (a list of Name/Arity, or all) to
% File, for --persist: each predicate after a line "%%charon Arity Codes" (the
% name's character codes, comma-separated), its clauses written with the operator
% table as it was before the knowledge base loaded (if the knowledge base changed a
% standard operator, with no operators at all), each checked to read back the same
% wherever it lands in the file. A line "%%charon-carry" follows, then the
% rest of the dynamic state (other modules, the blackboard) as changes that
% recreate it. Result: ok | exception(E).
'$charon_listing'(File, M, Which, R) :-
    catch('$charon_listing_'(File, M, Which), E, true),
    ( var(E) -> R = ok ; R = exception(E) ).
'$charon_listing_'(File, M, Which) :-
    (   Which == all
    ->  findall(N/A, ( '$charon_dynamic'(M, H), functor(H, N, A) ), PIs0)
    ;   PIs0 = Which
    ),
    sort(PIs0, PIs),
    findall(op(P, T, N), current_op(P, T, N), Now),
    findall(op(P, T, N), '$charon_initial_op'(P, T, N), Initial),
    (   Initial \== [], '$charon_keeps_ops'(Initial, Now)
    ->  How = plain,
        % The operators in force now, and those the file declared (above a clause,
        % an operator may be in force that a later op(0, …) took away).
        findall(Op, ( ( member(Op, Now) ; '$charon_kb_op'(P, T, N), P > 0, Op = op(P, T, N) ),
                      \+ memberchk(Op, Initial) ), Extra0),
        sort(Extra0, Extra)
    ;   How = canonical, Extra = []
    ),
    setup_call_cleanup(
        ( open(File, write, S), ( How == plain -> '$charon_set_ops'(Initial) ; true ) ),
        ( forall(member(N/A, PIs), '$charon_list_pred'(S, M, N, A, How-Extra)),
          '$charon_carry'(S, M) ),
        ( '$charon_set_ops'(Now), close(S) )).
% DQ: whether a list of characters may be written "…": not if the file sets the
% double_quotes flag (above a clause, "…" may read as codes or as an atom, where
% [a, b] reads the same under any value of the flag).
'$charon_string_option'(DQ) :- ( '$charon_kb_dq' -> DQ = false ; DQ = true ).
% T holds a non-empty list of characters.
'$charon_has_string'(T) :-
    compound(T),
    (   T = [_|_], '$is_partial_string'(T) -> true
    ;   T =.. [_|As], member(A, As), '$charon_has_string'(A)
    ).
% Every standard operator is still as it was.
'$charon_keeps_ops'([], _).
'$charon_keeps_ops'([Op|Ops], Now) :- memberchk(Op, Now), '$charon_keeps_ops'(Ops, Now).
'$charon_list_pred'(S, M, N, A, How) :-
    atom_codes(N, Codes),
    format(S, "%%charon ~d ", [A]),
    '$charon_put_codes'(S, Codes),
    nl(S),
    functor(H, N, A),
    forall('$charon_clause'(M, H, B),
           ( ( B == true -> C = H ; C = (H :- B) ),
             '$charon_list_clause'(S, C, How) )).
% A clause is written in the first form that reads back as itself (a variant of
% it) under the operators it is written with and, if the knowledge base added
% operators of its own (Extra), under those too, as it is wherever it lands in the
% file: with operators (a fact as writeq/1 writes it, a rule as portray_clause/2
% lays it out), else with none. Each form is read back, not trusted: text written
% under the standard operators can read as another term where the knowledge
% base's own are in force (t(- ===>) after op(700, xfx, ===>)), a symbol atom runs
% into the full stop, and a clause that read back as another would be a write
% lost at the next load. A
% clause neither form gives back is an error: the compaction is refused and the
% writes stay in the journal.
'$charon_list_clause'(S, C, plain-Extra) :-
    '$charon_plain_fact'(C, Extra),
    !,
    '$charon_string_option'(DQ),
    write_term(S, C, [quoted(true), double_quotes(DQ)]),
    write(S, '.'),
    nl(S).
'$charon_list_clause'(S, C, How-Extra) :-
    (   How == plain,
        '$charon_plain_text'(C, Cs),
        '$charon_reads_back'(Cs, C, Extra)
    ->  true
    ;   write_term_to_chars(C, [quoted(true), ignore_ops(true)], Cs0),
        '$charon_full_stop'(Cs0, Cs),
        '$charon_reads_back'(Cs, C, Extra)
    ->  true
    ;   throw(error(representation_error(clause), context('$charon_listing'/4, C)))
    ),
    % One write of the whole text (format/2's ~s costs three times as much).
    '$put_chars'(S, Cs),
    nl(S).
'$charon_plain_text'(C, Cs) :-
    '$charon_string_option'(DQ),
    (   C = (_ :- _),
        % portray_clause/2 writes "…" for a list of characters.
        ( DQ == true -> true ; \+ '$charon_has_string'(C) )
    ->  phrase(format:portray_clause_(C), Cs1),
        append(Cs, "\n", Cs1)
    ;   write_term_to_chars(C, [quoted(true), double_quotes(DQ)], Cs0),
        '$charon_full_stop'(Cs0, Cs)
    ).
% The full stop; on backtracking, after a space (a text ending in a symbol
% character would run into it: the first fails to read back as the clause).
'$charon_full_stop'(Cs0, Cs) :- append(Cs0, ".", Cs).
'$charon_full_stop'(Cs0, Cs) :- append(Cs0, " .", Cs).
% A fact whose text is the same under any operators and cannot run into the full
% stop: its name and its atoms are no operator's, every argument is an integer, an
% atom or a string written "…" while "…" reads as characters (most data, and four
% times quicker to write than to check). Floats are checked (scryer reads some
% float literals inexactly), and so are rationals (1 rdiv 3 reads back as a
% compound).
'$charon_plain_fact'(C, Extra) :-
    \+ C = (_ :- _),
    functor(C, F, N),
    N > 0,
    '$charon_no_op'(F, Extra),
    '$charon_plain_args'(N, C, Extra).
'$charon_plain_args'(0, _, _) :- !.
'$charon_plain_args'(N, C, Extra) :-
    arg(N, C, A),
    (   integer(A) -> true
    ;   atom(A) -> '$charon_no_op'(A, Extra)
    ;   A = [_|_]
    ->  '$is_partial_string'(A),
        current_prolog_flag(double_quotes, chars),
        '$charon_string_option'(true)
    ),
    N1 is N - 1,
    '$charon_plain_args'(N1, C, Extra).
'$charon_no_op'(A, Extra) :-
    \+ current_op(_, _, A),
    \+ memberchk(op(_, _, A), Extra).
% Cs, read under the operators in force, and under Extra added to them, is a
% variant of C, and is read as a clause (the loader takes `end_of_file`, `:- G`,
% `?- G` and `H --> B` for something else).
'$charon_reads_back'(Cs, C, Extra) :-
    '$charon_reads_as'(Cs, C),
    (   Extra == [] -> true
    ;   setup_call_cleanup(
            forall(member(op(P, T, N), Extra), catch(op(P, T, N), _, true)),
            '$charon_reads_as'(Cs, C),
            % No operator of Extra is a standard one's name and class (that one
            % would have changed, and the listing would be canonical): taking
            % them away again restores the standard table.
            forall(member(op(_, T, N), Extra), catch(op(0, T, N), _, true)))
    ).
% (T shares no variable with C: subsumption both ways is being a variant.)
'$charon_reads_as'(Cs, C) :-
    catch(read_term_from_chars(Cs, T, []), _, fail),
    T \== end_of_file,
    \+ T = (:- _),
    \+ T = (?- _),
    \+ T = (_ --> _),
    subsumes_term(T, C),
    subsumes_term(C, T).
'$charon_put_codes'(_, []).
'$charon_put_codes'(S, [C|Cs]) :-
    write(S, C),
    ( Cs == [] -> true ; write(S, ',') ),
    '$charon_put_codes'(S, Cs).
% The dynamic state outside module Main: every other module a change touched, with
% each of its dynamic predicates replaced whole, and the blackboard.
'$charon_carry'(S, Main) :-
    '$charon_modules'([], Ms),
    findall(E, ( member(M, Ms), M \== Main, '$charon_carry_module'(M, E) ), Es1),
    findall(bb_put(K, V), ( '$charon_bb_key'(K), bb_get(K, V) ), Es2),
    append(Es1, Es2, Es),
    '$charon_text'(Es, Cs),
    format(S, "%%charon-carry~n~s~n", [Cs]).
'$charon_carry_module'(M, E) :-
    '$charon_dynamic'(M, H),
    (   E = retractall(M:H)
    ;   '$charon_clause'(M, H, B),
        ( B == true -> E = assertz(M:H) ; E = assertz(M:(H :- B)) )
    ).

