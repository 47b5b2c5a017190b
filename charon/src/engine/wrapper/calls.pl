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

