% Charon's side of the engine, consulted into `user` before the knowledge base.
% Every call runs through '$charon_once'/4 or '$charon_all'/5, so no exception ever
% escapes to the top level (scryer keeps returning a stale exception after one does)
% and every goal is bounded by an inference limit.

:- use_module(library(iso_ext)).
:- use_module(library(lists)).
:- use_module(library(between)).
:- use_module(library(format)).
:- use_module(library(charsio)).
:- use_module(library(files)).

% '$charon_once'(+Template, +Goal, +Limit, -Unused)
% Writes the result, ok(Template) | false | limit | exception(E), as the last flush
% of user_output (see '$charon_emit'/1), then fails.
'$charon_once'(T, G, Lim, _) :-
    (   '$charon_call'(G, Lim, R0, E)
    ->  (   nonvar(E) -> '$charon_exception'(E, R)
        ;   R0 == inference_limit_exceeded -> R = limit
        ;   R = ok(T)
        )
    ;   R = false
    ),
    '$charon_emit'(R).

% '$charon_all'(+Template, +Goal, +Limit, +Max, -Unused)
% Result: ok(List) | limit | too_many | exception(E). Collecting stops at the
% (Max+1)th solution: an endless generator is "too many", not an inference limit.
% With Max = window(Skip, Take) (a page: see kb/page.rs), the answer is solutions
% Skip+1 to Skip+Take, however many more there are (the first Skip are found, not
% collected).
'$charon_all'(T, G, Lim, window(Skip, Take), _) :- !,
    (   '$charon_call'(findall(T, '$charon_window'(G, Skip, Take), L), Lim, R0, E)
    ->  (   nonvar(E) -> '$charon_exception'(E, R)
        ;   R0 == inference_limit_exceeded -> R = limit
        ;   R = ok(L)
        )
    ;   R = ok([])
    ),
    '$charon_emit'(R).
% With Max = stream(Key), a stream (see kb/stream.rs): each solution is written
% as it is found, as a flush of its own, '$charon_s'(Key, ok(T)), which the worker
% sends on at once; nothing is collected or counted (the engine counts, and stops
% the worker past its limit: a counter here would be a bb_put/2 a solution, which
% scryer 0.10 copies onto the heap for good), so memory stays flat however many
% there are. The result is ok(done) | limit | exception(E), the limits counting
% for the whole stream.
'$charon_all'(T, G, Lim, stream(Key), _) :- !,
    (   '$charon_call'(( call(G),
                         '$charon_put'(ok(T), '$charon_s'(Key, S), S),
                         fail
                       ; true
                       ), Lim, R0, E)
    ->  (   nonvar(E) -> '$charon_exception'(E, R)
        ;   R0 == inference_limit_exceeded -> R = limit
        ;   R = ok(done)
        )
    ;   R = ok(done)
    ),
    '$charon_emit'(R).
'$charon_all'(T, G, Lim, Max, _) :-
    bb_put('$charon_solutions', 0),
    (   '$charon_call'(findall(T, '$charon_upto'(G, Max), L), Lim, R0, E)
    ->  (   E == '$charon_too_many' -> R = too_many
        ;   nonvar(E) -> '$charon_exception'(E, R)
        ;   R0 == inference_limit_exceeded -> R = limit
        ;   R = ok(L)
        )
    ;   R = ok([])
    ),
    '$charon_emit'(R).
% '$charon_call'(+Goal, +Limit, -Result, -Exception): Goal inside catch/3, with
% at most Limit inferences (Result = inference_limit_exceeded past it); Limit 0
% counts nothing (the wall-clock limit still holds). Counting has a price in
% scryer 0.10: its counters are big integers, and a third of a long goal's time
% goes to them.
%
% Limit = checked(L) runs Goal without a counter and compares the engine's global
% inference count (kept anyway) before and after: a call that used more than L
% inferences gets the same inference_limit_exceeded as under a counter of L (the
% offsets below are this clause's own inferences: one when Goal succeeds, two
% when it fails), one that did not gets its own answer. What it cannot do is stop
% a runaway goal: the wall-clock limit does that (see `Counting` in config.rs).
'$charon_call'(G, 0, _, E) :- !, catch(G, E, true).
% Limit = reset(L): the knowledge base sets inference limits of its own. When one
% of them is exceeded in a goal that leaves choice points, scryer 0.10 keeps
% counter state that lets the next call run past its limit; a limited call of
% `true` first clears it.
'$charon_call'(G, reset(Lim), R0, E) :- !,
    call_with_inference_limit(true, 1, _),
    '$charon_call'(G, Lim, R0, E).
'$charon_call'(G, checked(Lim), R0, E) :- !,
    '$inference_count'(C0),
    (   catch(G, E0, true) -> Found = true ; Found = false ),
    '$inference_count'(C1),
    (   Found == true -> Used is C1 - C0 - 1 ; Used is C1 - C0 - 2 ),
    (   Used > Lim -> R0 = inference_limit_exceeded
    ;   Found == true, E = E0
    ).
'$charon_call'(G, Lim, R0, E) :- catch(call_with_inference_limit(G, Lim, R0), E, true).

% When the heap runs out under the worker's memory limit, scryer 0.10 throws a term
% that reads as the running query itself ('$charon_once'/4, '$charon_all'/5, or an
% operation's stub '$charon_o<N>', see codec.rs) rather than resource_error(memory):
% name it for what it is.
'$charon_exception'(E, exception(error(resource_error(memory), charon))) :-
    '$charon_query_term'(E), !.
'$charon_exception'(E, exception(E)).

% The stub form: a compound '$charon_o<N>' whose first argument is a limit term,
% of the arity of a stub that exists (a knowledge base can throw any atom a client
% sends it, but not this).
'$charon_query_term'(E) :-
    (   E = '$charon_once'(_, _, _, _) -> true
    ;   E = '$charon_all'(_, _, _, _, _) -> true
    ;   compound(E),
        functor(E, Name, Arity),
        atom_concat('$charon_o', N, Name),
        atom_chars(N, [D|Ds]),
        '$charon_digits'([D|Ds]),
        current_predicate(Name/Arity),
        arg(1, E, Limit),
        (   integer(Limit) -> true
        ;   Limit = checked(_) -> true
        ;   Limit = reset(_)
        )
    ).

'$charon_digits'([]).
'$charon_digits'([D|Ds]) :- char_type(D, decimal_digit), '$charon_digits'(Ds).
'$charon_upto'(G, Max) :-
    call(G),
    bb_get('$charon_solutions', N0),
    N is N0 + 1,
    bb_put('$charon_solutions', N),
    (   N > Max -> throw('$charon_too_many') ; true ).
% Solutions Skip+1 to Skip+Take of G, then no more (the cut ends G's search).
'$charon_window'(G, Skip, Take) :-
    Take > 0,
    End is Skip + Take,
    bb_put('$charon_solutions', 0),
    call(G),
    bb_get('$charon_solutions', N0),
    N is N0 + 1,
    bb_put('$charon_solutions', N),
    N > Skip,
    (   N >= End -> ! ; true ).

% '$charon_emit'(+Result): flushes what the goal printed, then writes
% '$charon_answer'(Result) as one more flush of user_output, which the worker
% takes as the answer; then fails, so that the query leaves no binding behind.
% Text rather than bindings: scryer converts a bound term to Rust in time
% quadratic in a list's length (and panics on some strings), while its writer is
% linear at any depth. write_canonical/2 is write_term/3 with quoted(true) and
% ignore_ops(true), less the parsing of an option list, which cost a point call
% half its time.
%
% One atom defeats that writer: scryer 0.10 writes the atom of two apostrophes
% (''''''), as an atom and as a functor name, exactly as it writes the empty
% atom: '' (every other atom, control characters, U+0085, U+2028, `[]`, `{}`,
% `,`, `|` and operators included, is written so that it reads back as itself).
% So an answer holding that atom is written with each occurrence replaced by a
% variable the writer is told to name '\'\'' (the atom's quoted text), which
% reads back as the atom. Finding out costs a walk of the answer
% ('$charon_quotes'/1), strings passed over in one step: measured beside the
% write alone, within noise for a point call, about 1 us for one with an atom
% output, and a quarter to a third more for a long list (0.3 us an element, the
% write 1 us). A functor named '' is left as the writer writes it (it can only
% be in an exception, never in an answer of a type).
'$charon_emit'(R) :-
    catch('$charon_put'(R, '$charon_answer'(R1), R1), _, true),
    flush_output(user_output),
    fail.

% '$charon_put'(+R, +Wrapped, -Slot): writes Wrapped, a term holding the variable
% Slot, with Slot standing for R, as one flush of user_output of its own (what the
% goal printed before is flushed first). An exception (memory) is the caller's.
'$charon_put'(R, Wrapped, Slot) :-
    flush_output(user_output),
    % No acyclic_term/1 check: in scryer 0.10 it corrupts the strings in a term
    % (the writer then prints another term in their place).
    (   '$charon_quotes'(R)
    ->  '$charon_quotes_var'(R, V, 0, Slot),
        write_term(user_output, Wrapped,
                   [quoted(true), ignore_ops(true),
                    variable_names(['\'\\\'\\\'\''=V])])
    ;   Slot = R,
        write_canonical(user_output, Wrapped)
    ),
    flush_output(user_output).

% '$charon_quotes'(+Result): the payload of Result holds the atom '''''' (two
% apostrophes). The search counts how deep it is in compound terms (D) and does
% not go past 1010, deeper than an answer may nest (a deeper one is refused
% anyway), so it ends on a cyclic term too (in time exponential in that depth
% when the cycle branches, X = f(X, X): the time limit stops it). Lists are
% walked by iteration, a cyclic list found by '$skip_max_list'/4, and a list of
% characters (a string: it cannot hold a two-character atom) passed over in one
% step.
'$charon_quotes'(ok(T)) :- '$charon_qq_sol'(T).
'$charon_quotes'(exception(E)) :- '$charon_qq'(E, 0).

% A solution's template with one or two outputs (most operations) at once.
'$charon_qq_sol'(sol(X)) :- !, '$charon_qq_x'(X).
'$charon_qq_sol'(sol(X, Y)) :- !, ( '$charon_qq_x'(X) -> true ; '$charon_qq_x'(Y) ).
'$charon_qq_sol'(T) :- '$charon_qq'(T, 0).
'$charon_qq_x'(X) :- ( atomic(X) -> X == '''''' ; '$charon_qq'(X, 1) ).

% It allocates nothing on the heap (functor/3 and arg/3, not =../2), so it cannot
% run out of memory where the write would not: it needs no catch/3.
'$charon_qq'(T, D) :-
    (   T == '''''' -> true
    ;   compound(T), D < 1010,
        D1 is D + 1,
        (   T = [_|_] -> '$charon_qq_list'(T, D1)
        ;   functor(T, _, N), '$charon_qq_arg'(N, T, D1)
        )
    ).
% The arguments N, N-1, ..., 1 of T.
'$charon_qq_arg'(N, T, D) :-
    N > 0,
    arg(N, T, A),
    (   A == '''''' -> true
    ;   compound(A), '$charon_qq'(A, D) -> true
    ;   N1 is N - 1, '$charon_qq_arg'(N1, T, D)
    ).
% The elements of a proper list; `sol(X)` (a solution's template) taken at once.
'$charon_qq_args'([A|As], D) :-
    (   A == '''''' -> true
    ;   atomic(A) -> '$charon_qq_args'(As, D)
    ;   compound(A)
    ->  (   A = sol(X), atomic(X) -> ( X == '''''' -> true ; '$charon_qq_args'(As, D) )
        ;   '$charon_qq'(A, D) -> true
        ;   '$charon_qq_args'(As, D)
        )
    ;   '$charon_qq_args'(As, D)
    ).
'$charon_qq_list'(L, D) :-
    '$skip_max_list'(N, _, L, Tail),
    (   Tail == [] -> \+ '$is_partial_string'(L), '$charon_qq_args'(L, D)
    ;   '$charon_qq_items'(N, L, D) -> true
    ;   '$charon_qq'(Tail, D)
    ).
% The first N elements of a partial or cyclic list.
'$charon_qq_items'(N, [X|Xs], D) :-
    N > 0,
    (   '$charon_qq'(X, D) -> true
    ;   N1 is N - 1, '$charon_qq_items'(N1, Xs, D)
    ).

% '$charon_quotes_var'(+T0, ?V, +D, -T): T0 with every atom '''''' replaced by V
% (bounded as '$charon_qq'/2 is).
'$charon_quotes_var'(T0, V, D, T) :-
    (   T0 == '''''' -> T = V
    ;   compound(T0), D < 1010
    ->  D1 is D + 1,
        (   T0 = [_|_]
        ->  '$skip_max_list'(N, _, T0, Tail),
            (   Tail == [], '$is_partial_string'(T0) -> T = T0
            ;   '$charon_quotes_var_items'(N, T0, V, D1, T)
            )
        ;   T0 =.. [F|As0],
            '$charon_quotes_var_args'(As0, V, D1, As),
            T =.. [F|As]
        )
    ;   T = T0
    ).
'$charon_quotes_var_items'(N, L0, V, D, L) :-
    (   N > 0, L0 = [X0|Xs0]
    ->  '$charon_quotes_var'(X0, V, D, X),
        L = [X|Xs],
        N1 is N - 1,
        '$charon_quotes_var_items'(N1, Xs0, V, D, Xs)
    ;   '$charon_quotes_var'(L0, V, D, L)
    ).
'$charon_quotes_var_args'([], _, _, []).
'$charon_quotes_var_args'([A0|As0], V, D, [A|As]) :-
    '$charon_quotes_var'(A0, V, D, A),
    '$charon_quotes_var_args'(As0, V, D, As).

% '$charon_floats'(+Goal): calls Goal after turning every '$charon_f'(M, E) in it
% into the float M * 2^E. scryer reads float literals lossily; this is exact.
'$charon_floats'(G0) :-
    '$charon_exact'(G0, G),
    call(G).
% '$charon_none'(+T, +Kind): T holds no float (Kind 0.0) or no '$charon_f'/2 term
% (Kind '$charon_f'(_, _)). Most terms hold none, and this walk, which builds
% nothing (functor/3, arg/3) and takes a string at once, is many times quicker
% than rebuilding the term with =../2 (a string is a list of characters).
'$charon_none'(T, Kind) :-
    (   compound(T)
    ->  (   T = [_|_], '$is_partial_string'(T) -> true
        ;   \+ T = Kind,
            functor(T, _, N),
            '$charon_none_args'(1, N, T, Kind)
        )
    ;   float(T)
    ->  Kind \== 0.0
    ;   true
    ).
% The arguments I..N of T, the last one as a tail call (lists run long).
'$charon_none_args'(I, N, T, Kind) :-
    arg(I, T, A),
    (   I =:= N -> '$charon_none'(A, Kind)
    ;   '$charon_none'(A, Kind),
        I1 is I + 1,
        '$charon_none_args'(I1, N, T, Kind)
    ).
'$charon_exact'(T0, T) :-
    (   '$charon_none'(T0, '$charon_f'(_, _)) -> T = T0
    ;   '$charon_exact_'(T0, T)
    ).
'$charon_exact_'(T0, T) :-
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
    '$charon_exact_'(A0, A),
    '$charon_exact_list'(As0, As).

% '$charon_encode'(+T0, -T): T0 with every float F replaced by '$charon_f'(M, E),
% F = M * 2^E exactly ('$charon_exact'/2 is the inverse), so text carries floats
% without loss.
'$charon_encode'(T0, T) :-
    (   '$charon_none'(T0, 0.0) -> T = T0
    ;   '$charon_encode_'(T0, T)
    ).
'$charon_encode_'(T0, T) :-
    (   float(T0)
    ->  '$charon_float_parts'(T0, 0, M, E),
        T = '$charon_f'(M, E)
    ;   compound(T0)
    ->  T0 =.. [F|As0],
        '$charon_encode_list'(As0, As),
        T =.. [F|As]
    ;   T = T0
    ).
'$charon_encode_list'([], []).
'$charon_encode_list'([A0|As0], [A|As]) :-
    '$charon_encode_'(A0, A),
    '$charon_encode_list'(As0, As).
% Doubling a float is exact; after at most 1074 doublings it is an integer.
'$charon_float_parts'(F, K, M, E) :-
    (   F =:= float_integer_part(F)
    ->  M is truncate(F), E is -K
    ;   K > 1100
    ->  throw(error(representation_error(finite_float), '$charon_encode'/2))
    ;   F1 is F * 2, K1 is K + 1,
        '$charon_float_parts'(F1, K1, M, E)
    ).

% '$charon_text'(+T, -Chars): T written so that read_term/2 gives it back whatever
% operators are in force (floats encoded, no operator syntax).
% The atom '''''' (two apostrophes), which scryer 0.10 writes as the empty atom,
% is written through a variable named as it should be written (as '$charon_emit'/1
% does).
'$charon_text'(T, Cs) :-
    '$charon_text_form'(T, T1, Options),
    write_term_to_chars(T1, Options, Cs0),
    append(Cs0, " .", Cs).
'$charon_text_form'(T, T2, Options) :-
    '$charon_encode'(T, T1),
    '$charon_write_options'(T1, [quoted(true), ignore_ops(true)], T2, Options).
'$charon_write_options'(T0, Options0, T, Options) :-
    (   '$charon_qq'(T0, 0)
    ->  '$charon_quotes_var'(T0, V, 0, T),
        Options = [variable_names(['\'\\\'\\\'\''=V])|Options0]
    ;   T = T0, Options = Options0
    ).
'$charon_read_text'(Cs, T) :-
    read_term_from_chars(Cs, T0, []),
    '$charon_exact'(T0, T).

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
'$charon_loose'(N, A, J, Ms) :-
    functor(H, N, A),
    member(M, Ms),
    % (clause(user:H, B) raises an existence error in scryer 0.10.)
    catch(( ( M == user -> clause(H, _) ; M:clause(H, _) ),
            arg(J, H, X), \+ atomic(X) ), _, true),
    !.

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
% change nothing while they run: read from the engine's clause store ('$clause'/2,
% kept in builtins for user) without the copy of every matching clause that clause/2
% takes for the logical update view (vendor/scryer-prolog/CHARON.md), which for a
% million facts would hold them all a second time. A module has no '$clause'/2
% until a clause of one of its dynamic predicates is added: none to list then.
'$charon_clause'(user, H, B) :- !, builtins:'$clause'(H, B).
'$charon_clause'(M, H, B) :-
    catch(M:'$clause'(H, B), error(existence_error(procedure, '$clause'/2), _), fail).

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
    '$charon_write_options'(C, [quoted(true), double_quotes(DQ)], C1, Options),
    write_term(S, C1, Options),
    write(S, '.'),
    nl(S).
'$charon_list_clause'(S, C, How-Extra) :-
    (   How == plain,
        '$charon_plain_text'(C, Cs),
        '$charon_reads_back'(Cs, C, Extra)
    ->  true
    ;   '$charon_write_options'(C, [quoted(true), ignore_ops(true)], C1, Options),
        write_term_to_chars(C1, Options, Cs0),
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
    (   C = (_ :- _), \+ '$charon_qq'(C, 0),
        % portray_clause/2 writes "…" for a list of characters.
        ( DQ == true -> true ; \+ '$charon_has_string'(C) )
    ->  phrase(format:portray_clause_(C), Cs1),
        append(Cs, "\n", Cs1)
    ;   '$charon_write_options'(C, [quoted(true), double_quotes(DQ)], C1, Options),
        write_term_to_chars(C1, Options, Cs0),
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

% ---------------------------------------------------------------------------
% Loading the knowledge base (the worker's Load; consult/1 loads this file).
%
% '$charon_consult'(+Path): consult/1 of Path, done as scryer 0.10's loader does
% it (loader:use_module/3, file_load/3 and load_loop/2: the same load context and
% the same compile_term/2 for each term, so term expansion, the rewriting at the
% end of this file included, declarations, modules, operators, use_module/1,2 of
% other files and initialization/1 behave as under consult/1), except that the
% terms are read in a failure-driven loop. load_loop/2 recurses and keeps every
% term it read on the heap until the end of the file (scryer 0.10 collects no
% garbage), which made a large file cost about three times the memory and half as
% much time again; here a term is gone once compiled (see BENCHMARKS.md, "Loading
% large knowledge bases"). The reads call the system predicates under
% read_term/3 and stream_property/2 directly, without their option checks, a
% third of the time of reading.
%
% Done as load_loop/2 does: layout and comments are skipped before each term (a
% comment at the end of the file is no syntax error), singleton warnings, the
% answer descriptions after a `?-` query are passed over. An error is printed
% and the load fails, as under consult/1; an error outside the loader (the file
% cannot be opened) is printed too.
'$charon_consult'(Path) :-
    retractall('$charon_kb_blamed'),
    retractall('$charon_kb_loaded'(_)),
    retractall('$charon_kb_file'(_)),
    retractall('$charon_kb_op'(_, _, _)),
    retractall('$charon_kb_dq'),
    '$push_load_state_payload'(E0),
    catch('$charon_kb_load'(Path, [], E0), Error, '$charon_kb_error'(Error)),
    '$pop_load_state_payload'(E0).

'$charon_kb_error'(file_load_error) :- !, fail.
'$charon_kb_error'(Error) :-
    catch(loader:write_error(Error), _, true),
    nl,
    fail.

:- dynamic('$charon_kb_blamed'/0).
:- dynamic('$charon_kb_loaded'/1).
:- dynamic('$charon_kb_file'/1).
:- dynamic('$charon_kb_op'/3).
:- dynamic('$charon_kb_dq'/0).

% '$charon_kb_load'(+Path, +Exports, +E0): loads the file Path (absolute, or
% relative to the working directory) as use_module/2 does (loader:use_module/3):
% its own load context, its module's exports (Exports, [] for all) imported into
% the loading context E0.
'$charon_kb_load'(Path0, Exports, E0) :-
    loader:load_context_path(Path0, Path1),
    loader:open_file(Path1, S),
    stream_property(S, file_name(Path)),
    assertz('$charon_kb_loaded'(Path)),
    loader:create_file_load_context(S, Path, E),
    '$add_in_situ_filename_module'(E),
    asserta('$charon_kb_file'(Path)),
    catch('$charon_kb_terms'(S, E, Path),
          Error,
          ( '$charon_kb_blame'(Path, 0, Error), loader:file_load_cleanup(E, Error) )),
    retract('$charon_kb_file'(Path)),
    '$pop_load_context',
    '$use_module'(E0, E, Exports),
    '$pop_load_state_payload'(E).

'$charon_kb_terms'(S, E, Path) :-
    '$charon_kb_each'(S, E, Path),
    close(S),
    '$conclude_load'(E),
    loader:run_initialization_goals.

% '$charon_kb_each'(+S, +E, +Path): compiles every term of S into E.
'$charon_kb_each'(S, E, Path) :-
    (   repeat,
        '$charon_kb_next'(S, T, Line, Singletons),
        (   T == end_of_file -> !
        ;   var(T) -> throw(error(instantiation_error, load/1))
        ;   T = (?- _) -> '$charon_kb_answers'(S, E, Path), fail
        ;   loader:warn_about_singletons(Singletons, Line),
            '$charon_kb_compile'(T, E, Path, Line),
            fail
        )
    ).

% '$charon_kb_next'(+S, -T, -Line, -Singletons): the next term and the line it
% starts on (loader:stream_next_term/4).
'$charon_kb_next'(S, T, Line, Singletons) :-
    (   '$devour_whitespace'(S)
    ->  '$stream_property'(S, position, position_and_lines_read(_, Lines)),
        '$read_term'(S, T, Singletons, _, _),
        Line is Lines + 1
    ;   T = end_of_file
    ).

% compile_term/2 does not fail; if it did, load_loop/2 would fail the load, and
% so does this, naming the term. The directives that load other files, which
% scryer takes only as goals, are done here as a Prolog system does them.
'$charon_kb_compile'(T, E, Path, Line) :-
    (   T = (:- D), nonvar(D) -> '$charon_kb_note'(D) ; true ),
    catch('$charon_kb_compile_'(T, E, Path), Error,
          ( '$charon_kb_blame'(Path, Line, Error), throw(Error) )).

% What the listing for --persist must know of the files' directives: every
% operator they declare ('$charon_kb_op'/3: one may be taken away again below the
% clauses it is used in), and whether they set the double_quotes flag
% ('$charon_kb_dq': "…" then reads differently in different parts of a file).
'$charon_kb_note'(D) :-
    catch('$charon_kb_note_'(D), _, true).
'$charon_kb_note_'((A, B)) :- !, '$charon_kb_note'(A), '$charon_kb_note'(B).
'$charon_kb_note_'(op(P, T, Ns)) :- !,
    (   atom(Ns) -> '$charon_kb_note_op'(P, T, Ns)
    ;   is_list(Ns) -> forall(member(N, Ns), '$charon_kb_note_op'(P, T, N))
    ;   true
    ).
'$charon_kb_note_'(module(_, Exports)) :- !,
    (   is_list(Exports)
    ->  forall(member(op(P, T, N), Exports), '$charon_kb_note_'(op(P, T, N)))
    ;   true
    ).
'$charon_kb_note_'(set_prolog_flag(double_quotes, _)) :- !,
    ( '$charon_kb_dq' -> true ; assertz('$charon_kb_dq') ).
'$charon_kb_note_'(_).
'$charon_kb_note_op'(P, T, N) :-
    (   integer(P), atom(T), atom(N), \+ '$charon_kb_op'(P, T, N)
    ->  assertz('$charon_kb_op'(P, T, N))
    ;   true
    ).

'$charon_kb_compile_'(T, E, Path) :-
    (   T = (:- D), nonvar(D), '$charon_kb_loading'(D, How, Specs0)
    ->  '$charon_kb_specs'(Specs0, Specs),
        '$charon_kb_load_all'(Specs, How, E, Path)
    ;   loader:compile_term(T, E) -> true
    ;   throw(error(charon_not_compiled(T), load/1))
    ).

'$charon_kb_loading'(include(S), include, S).
'$charon_kb_loading'(consult(S), consult, S).
'$charon_kb_loading'(ensure_loaded(S), ensure_loaded, S).
'$charon_kb_loading'([S|Ss], consult, [S|Ss]).
'$charon_kb_loading'(use_module(S), use_module([]), S) :- '$charon_kb_local'(S).
'$charon_kb_loading'(use_module(S, Is), use_module(Is), S) :-
    '$charon_kb_local'(S), Is \== [].

% A file of the knowledge base's own, not library(...): resolved against the file
% that names it (scryer would take the main file's directory).
'$charon_kb_local'(S) :- atom(S), !.
'$charon_kb_local'(_/_).

'$charon_kb_specs'(S, _) :- var(S), !, throw(error(instantiation_error, load/1)).
'$charon_kb_specs'([], []) :- !.
'$charon_kb_specs'([S|Ss], Specs) :- !,
    '$charon_kb_specs'(S, Specs0), '$charon_kb_specs'(Ss, Specs1),
    append(Specs0, Specs1, Specs).
'$charon_kb_specs'(S, [S]).

'$charon_kb_load_all'([], _, _, _).
'$charon_kb_load_all'([S|Ss], How, E, Path) :-
    '$charon_kb_load_one'(How, S, E, Path),
    '$charon_kb_load_all'(Ss, How, E, Path).

'$charon_kb_load_one'(_, S, E, _) :-
    nonvar(S), S = library(_), !,
    loader:use_module(S, [], E).
'$charon_kb_load_one'(How, S, E, From) :-
    (   '$charon_resolve'(S, From, File) -> true
    ;   '$charon_kb_how'(How, Name),
        (   ( atom(S) ; S = _/_ ) -> throw(error(existence_error(source_sink, S), Name/1))
        ;   throw(error(type_error(atom, S), Name/1))
        )
    ),
    '$charon_kb_load_file'(How, File, E).

'$charon_kb_how'(use_module(_), use_module) :- !.
'$charon_kb_how'(How, How).

'$charon_kb_load_file'(include, File, E) :- !,
    (   '$charon_kb_file'(File) -> throw(error(charon_include_cycle(File), include/1))
    ;   true
    ),
    setup_call_cleanup(
        open(File, read, S),
        ( asserta('$charon_kb_file'(File)),
          catch('$charon_kb_each'(S, E, File), Error,
                ( '$charon_kb_blame'(File, 0, Error), throw(Error) )),
          retract('$charon_kb_file'(File)) ),
        close(S)).
'$charon_kb_load_file'(ensure_loaded, File, _) :-
    '$charon_kb_loaded'(File), !.
% A file that is being loaded (it loads, through others, the file that loads it):
% its load goes on where it is; loading it again would never end.
'$charon_kb_load_file'(_, File, _) :-
    '$charon_kb_file'(File), !.
'$charon_kb_load_file'(use_module(Is), File, E) :- !,
    '$charon_kb_load'(File, Is, E).
'$charon_kb_load_file'(_, File, E) :-
    '$charon_kb_load'(File, [], E).

% '$charon_kb_blame'(+Path, +Line, +Error): says on the output which file (and
% line, 0 if unknown) an error happened in; only the innermost says it. The
% engine reads it to name the file in the load error.
'$charon_kb_blame'(_, _, _) :- '$charon_kb_blamed', !.
'$charon_kb_blame'(_, _, file_load_error) :- !.
'$charon_kb_blame'(Path, Line, _) :-
    assertz('$charon_kb_blamed'),
    format("~ncharon-blame: ~d ~a~n", [Line, Path]).

% After a query, up to the next term that is no answer description
% (loader:devour_answer_descriptions/2).
'$charon_kb_answers'(S, E, Path) :-
    '$charon_kb_next'(S, T, Line, Singletons),
    (   T == end_of_file -> true
    ;   var(T) -> throw(error(instantiation_error, load/1))
    ;   T = (?- _) -> '$charon_kb_answers'(S, E, Path)
    ;   loader:answer_description(T) -> '$charon_kb_answers'(S, E, Path)
    ;   Lines is Line - 1,
        loader:warn_about_singletons(Singletons, Lines),
        '$charon_kb_compile'(T, E, Path, Line)
    ).

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
