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
% half its time. (The engine's writer writes every atom so that it reads back as
% itself; until its item 34 it wrote the atom of two apostrophes as the empty
% atom, and this wrapper walked each answer to write that atom another way.)
'$charon_emit'(R) :-
    catch('$charon_put'(R, '$charon_answer'(R1), R1), _, true),
    flush_output(user_output),
    fail.

% '$charon_put'(+R, +Wrapped, -Slot): writes Wrapped, a term holding the variable
% Slot, with Slot standing for R, as one flush of user_output of its own (what the
% goal printed before is flushed first). An exception (memory) is the caller's.
'$charon_put'(R, Wrapped, R) :-
    flush_output(user_output),
    % No acyclic_term/1 check: in scryer 0.10 it corrupts the strings in a term
    % (the writer then prints another term in their place).
    write_canonical(user_output, Wrapped),
    flush_output(user_output).

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
'$charon_text'(T, Cs) :-
    '$charon_text_form'(T, T1, Options),
    write_term_to_chars(T1, Options, Cs0),
    append(Cs0, " .", Cs).
'$charon_text_form'(T, T1, [quoted(true), ignore_ops(true)]) :-
    '$charon_encode'(T, T1).
'$charon_read_text'(Cs, T) :-
    read_term_from_chars(Cs, T0, []),
    '$charon_exact'(T0, T).

