/*  SWI-Prolog's side of tests/e2e/differential.rs.

    swipl -q swi_driver.pl -- KB.pl [Name=Value ...] [iso_arith]

    Sets the SWI-Prolog flags given (iso=true, ...), consults KB.pl, then reads
    calls from standard input, one term a line, and answers each on one line of
    standard output, in order:

        c(Det, Name, Args, Tables)   Args: in(Value) or out(Type), in mode-line order;
                                     Tables: the dynamic predicates (Name/Arity) a
                                     failed call's changes are undone in (entry 1)

    answered by

        ok JSON        the call's answer shaped as Charon shapes it: by the declared
                       determinism (det: the solution; semidet: the solution, or
                       null, or false when there are no outputs; nondet: the list of
                       solutions), a solution being the output, or the list of the
                       outputs when there are several (the test turns Charon's
                       object of outputs into that list)
        detfail        a det operation failed
        error CLASS    the call raised error(Formal, _): CLASS is Formal's name, and
                       its first argument when that is an atom (type_error:evaluable);
                       any other ball B: throw:B

    preceded by a line `applied N` for each time an entry N of DIFFERENCES.md
    changed what SWI-Prolog would have answered.

    The differences that stay on purpose (DIFFERENCES.md) are encoded here, each
    where a comment names its entry: the driver answers as Charon does on those
    points, and on no other.

    Entry 1: a call that fails (det and semidet) or raises keeps none of its
    changes in Charon. The driver undoes them likewise: it saves the clauses of
    the Tables before each call, and puts them back after such a call.
*/

:- use_module(library(lists)).
:- use_module(library(http/json)).

:- initialization(main, main).

:- dynamic(iso_arith/0).

main :-
    current_prolog_flag(argv, [KB|Flags]),
    set_flags(Flags),
    load_files(KB, [silent(true)]),
    set_stream(user_output, buffer(line)),
    loop.

% Flags for a fair comparison (given on the command line as name=value): the
% arithmetic test sets iso=true, so that 4/2 is 2.0 and 0/0 is undefined, as ISO
% says and Charon's engine does.
set_flags([]).
set_flags([iso_arith|Fs]) :- !,
    assertz(iso_arith),
    set_flags(Fs).
set_flags([F|Fs]) :-
    atomic_list_concat([N, V0], =, F),
    (   atom_number(V0, V) -> true ; V = V0 ),
    set_prolog_flag(N, V),
    set_flags(Fs).

loop :-
    read_term(user_input, Call, []),
    (   Call == end_of_file
    ->  true
    ;   answer(Call),
        loop
    ).

answer(c(Det, Name, Args, Tables)) :-
    save(Tables, Saved),
    goal(Name, Args, Goal, Outs),
    catch(run(Det, Goal, Outs, Result), E, Result = exception(E)),
    (   ( Result = exception(_) ; Result == detfail ; Result = semifail(_) )
    ->  save(Tables, Now),
        (   variant(Now, Saved) -> true ; applied(1), restore(Saved) )
    ;   true
    ),
    print_applied,
    print_result(Result),
    flush_output.

goal(Name, Args, Goal, Outs) :-
    args(Args, Values, Outs),
    Goal =.. [Name|Values].

args([], [], []).
args([in(V)|As], [V|Vs], Os) :- args(As, Vs, Os).
args([out(T)|As], [X|Vs], [X-T|Os]) :- args(As, Vs, Os).

run(det, Goal, Outs, R) :-
    (   once(Goal) -> solution(Outs, S), R = ok(S) ; R = detfail ).
run(semidet, Goal, Outs, R) :-
    (   once(Goal)
    ->  solution(Outs, S), R = ok(S)
    ;   Outs == [] -> R = semifail(false)
    ;   R = semifail(null)
    ).
run(nondet, Goal, Outs, ok(list(Ss))) :-
    findall(S, (call(Goal), solution(Outs, S)), Ss).

% A solution: no outputs: true; one: its value; several: the list of their values.
solution([], bool(true)).
solution([X-T], typed(X, T)) :- !.
solution(Outs, list(Vs)) :-
    findall(typed(X, T), member(X-T, Outs), Vs).

print_result(ok(S)) :-
    json_of(S, J),
    format("ok "),
    json_write(current_output, J, [width(0)]),
    nl.
print_result(semifail(J)) :-
    format("ok ~w~n", [J]).
print_result(detfail) :-
    format("detfail~n").
print_result(exception(E)) :-
    (   E = error(F, _), nonvar(F)
    ->  functor(F, N, A),
        (   A >= 1, arg(1, F, X), atom(X)
        ->  format("error ~w:~w~n", [N, X])
        ;   format("error ~w~n", [N])
        )
    ;   format("error throw:~q~n", [E])
    ).

% JSON by declared type, as Charon converts outputs (§3 of the spec).
json_of(bool(B), @(B)).
json_of(list(Ss), Js) :- maplist(json_of, Ss, Js).
json_of(typed(X, T), J) :- typed_json(T, X, J).

typed_json(_, X, _) :- var(X), !, throw(error(instantiation_error, unbound_output)).
typed_json(list(T), L, Js) :- !, must_be(list, L), maplist(typed_json(T), L, Js).
typed_json(list, L, Js) :- !, typed_json(list(any), L, Js).
typed_json(bool, B, @(B)) :- !, must_be(boolean, B).
typed_json(int, N, N) :- !, must_be(integer, N).
typed_json(atom, A, S) :- !, must_be(atom, A), atom_string(A, S).
typed_json(any, X, J) :- !,
    (   is_list(X) -> maplist(typed_json(any), X, J)
    ;   ( X == true ; X == false ) -> J = @(X)
    ;   atom(X) -> atom_string(X, J)
    ;   J = X
    ).
typed_json(T, X, X) :- must_be(ground, T).

% The clauses of each table (rules too, as Head :- Body), and whether it is
% defined (it is not after abolish/1): put back after a failed call. Two saves
% are compared as variants: a clause's variables are fresh in each.
save(Tables, Saved) :- maplist(save_table, Tables, Saved).

% A and B (which share no variable) are the same up to their variables' names.
variant(A, B) :- subsumes_term(A, B), subsumes_term(B, A).

save_table(N/A, saved(Head, Defined, Clauses)) :-
    functor(Head, N, A),
    (   predicate_property(Head, dynamic)
    ->  Defined = true,
        findall((Head :- Body), clause(Head, Body), Clauses)
    ;   Defined = false, Clauses = []
    ).

restore(Saved) :- maplist(restore_table, Saved).

restore_table(saved(Head, Defined, Clauses)) :-
    functor(Head, N, A),
    (   Defined == true
    ->  retractall(Head),
        forall(member(C, Clauses), assertz(C))
    ;   abolish(N/A)
    ).

/*  DIFFERENCES.md, entry 2: SWI-Prolog's retract/1 of a procedure that does not
    exist (never defined, or abolished) creates it, dynamic and without clauses,
    so that calling it afterwards fails instead of raising an existence error. ISO
    (8.9.3) only says that retract/1 fails, and Charon's engine creates nothing.
    The knowledge base's retract/1 calls are read as ISO's.
    The clause is read in the module the call was made in (a module file's own
    retract/1 calls).
*/
:- meta_predicate(differential_retract(:)).

differential_retract(M0:C0) :-
    strip_module(M0:C0, M, C),
    (   C = (H :- _) -> true ; H = C ),
    (   predicate_property(M:H, defined) -> retract(M:C) ; applied(2), fail ).

% (After differential_retract/1, whose retract/1 is SWI-Prolog's own.)
user:goal_expansion(retract(C), differential_retract(C)).

/*  DIFFERENCES.md, entry 14: consult/1 in Charon's engine replaces every clause
    of each predicate the file defines, clauses asserted at run time included,
    whichever file defined it before (the classic reconsult). SWI-Prolog keeps
    the asserted clauses of a dynamic predicate when the file that defined it is
    loaded again, and makes a predicate that a second file defines static. The
    knowledge base's consult/1 calls are read as the classic reconsult: the file's
    terms are read, the predicates it defines are emptied (or declared dynamic),
    and its clauses are added in order. `applied 14` is printed when the load
    removed clauses that did not come from the file as it reads now.
*/
differential_consult(File) :-
    setup_call_cleanup(open(File, read, In), read_terms(In, Terms), close(In)),
    findall(N/A,
            ( member(T, Terms), T \= (:- _),
              ( T = (H :- _) -> true ; H = T ), functor(H, N, A) ),
            Defined0),
    sort(Defined0, Defined),
    forall(member(N/A, Defined), empty_for_load(N/A, Terms)),
    forall(( member(T, Terms), T \= (:- _) ), assertz(T)).

read_terms(In, Terms) :-
    read_term(In, T, []),
    (   T == end_of_file -> Terms = [] ; Terms = [T|Ts], read_terms(In, Ts) ).

empty_for_load(N/A, Terms) :-
    functor(H, N, A),
    (   predicate_property(H, dynamic)
    ->  findall(H, clause(H, true), Before),
        findall(H, ( member(T, Terms), copy_term(T, H) ), FromFile),
        (   subsumes_all(Before, FromFile) -> true ; applied(14) ),
        retractall(H)
    ;   dynamic(N/A)
    ).

% Every clause before the load is one of the file's (so SWI-Prolog's own reload
% would have left the same clauses).
subsumes_all(Before, FromFile) :-
    forall(member(C, Before), ( member(F, FromFile), subsumes_term(C, F), subsumes_term(F, C) )).

user:goal_expansion(consult(F), differential_consult(F)).

/*  Arithmetic as ISO specifies it where SWI-Prolog chooses otherwise (given
    `iso_arith` on the command line: the arithmetic test). The knowledge base's
    `V is E`, its comparisons `A < B` (any of the six) and `call(G)` are read as
    differential_is/2 and differential_call/1, which evaluate the expression node by node, each node by
    SWI-Prolog's is/2, except where an entry of DIFFERENCES.md says otherwise.
    Each use of an entry is printed before the answer (`applied N`), so that the
    test counts them.
*/

differential_is(V, E) :-
    differential_eval(E, V0),
    V = V0.

differential_call(G) :-
    (   compound(G), G =.. [Op, A, B], memberchk(Op, [=:=, =\=, <, >, =<, >=])
    ->  differential_eval(A, X),
        differential_eval(B, Y),
        differential_compare(Op, X, Y)
    ;   call(G)
    ).

% DIFFERENCES.md, entry 3: when an expression has several errors, ISO leaves
% which is raised to the implementation (7.9.2); Charon's engine evaluates the
% arguments left to right, innermost first, and raises the first error met. So
% does this evaluator (SWI-Prolog's is/2 may check the types of a node before
% evaluating its arguments, or the right argument first).
differential_eval(E, _) :-
    var(E), !,
    throw(error(instantiation_error, context(system:(is)/2, _))).
differential_eval(E, V) :-
    number(E), !,
    V = E.
differential_eval(E, V) :-
    atom(E), !,
    V is E.
differential_eval(E, V) :-
    compound(E), !,
    E =.. [F|As],
    maplist(differential_eval, As, Vs),
    differential_apply(F, Vs, V).
differential_eval(E, V) :-
    V is E.

% DIFFERENCES.md, entry 4: X ** Y and X ^ Y with X zero and Y negative are
% evaluation_error(undefined) in ISO (9.3.1.3, 9.3.10.3) and in Charon's engine;
% SWI-Prolog raises evaluation_error(zero_divisor).
differential_apply(Op, [X, Y], _) :-
    memberchk(Op, [**, ^]), X =:= 0, Y < 0, !,
    applied(4),
    throw(error(evaluation_error(undefined), context(system:Op/2, _))).
% DIFFERENCES.md, entry 5: the type of a power. X ** Y is a float in ISO (9.3.1,
% "float power") and in Charon's engine, and X ^ Y is a float when X or Y is
% (Cor.2 9.3.10); SWI-Prolog gives an integer for ** of two integers (when
% prefer_rationals is false; its iso flag does not change it), and for some
% floats too: X ** 0.0, 0 ** 19.0 and 0 ^ 4.0 are the integers 1, 0 and 0.
differential_apply(**, [X, Y], V) :- !,
    V0 is float(X) ** float(Y),
    (   integer(V0) -> V is float(V0) ; V = V0 ),
    (   ( integer(X), integer(Y) ; integer(V0) ) -> applied(5) ; true ).
differential_apply(^, [X, Y], V) :-
    ( float(X) ; float(Y) ), !,
    V0 is X ^ Y,
    (   integer(V0) -> applied(5), V is float(V0) ; V = V0 ).
% DIFFERENCES.md, entry 6: X ^ Y of two integers with Y negative and X neither
% 1 nor -1 is type_error(float, X) in ISO (Cor.2 9.3.10.3, as corrected by
% Cor.3) and in Charon's engine; SWI-Prolog gives a float.
differential_apply(^, [X, Y], _) :-
    integer(X), integer(Y), Y < 0, X =\= 1, X =\= -1, !,
    applied(6),
    throw(error(type_error(float, X), context(system:(^)/2, _))).
% DIFFERENCES.md, entry 7: X / 0 with X zero (0 / 0, 0.0 / 0, 0 / 0.0) is
% evaluation_error(zero_divisor) in Charon's engine, the error ISO gives a zero
% divisor (9.1.7); SWI-Prolog in ISO mode raises evaluation_error(undefined).
differential_apply(/, [X, Y], _) :-
    Y =:= 0, X =:= 0, !,
    applied(7),
    throw(error(evaluation_error(zero_divisor), context(system:(/)/2, _))).
% DIFFERENCES.md, entry 8: atan2(0, 0) (either zero of either sign) is
% evaluation_error(undefined) in ISO (Cor.2 9.3.13.3) and in Charon's engine;
% SWI-Prolog answers 0.0 or pi.
differential_apply(atan2, [Y, X], _) :-
    Y =:= 0, X =:= 0, !,
    applied(8),
    throw(error(evaluation_error(undefined), context(system:atan2/2, _))).
% DIFFERENCES.md, entry 9: float_integer_part/1 and float_fractional_part/1 of
% an integer are floats in Charon's engine (ISO defines them on floats, F -> F,
% and an integer argument is converted, as for sqrt/1); SWI-Prolog gives
% integers (float_integer_part(13) is 13, float_fractional_part(10) is 0), and
% an integer beyond the float range is float_overflow, the conversion's error.
% (ISO's float_fractional_part(X) is X - float_integer_part(X): 0.0 for any
% integer, of either sign.)
differential_apply(F, [X], _) :-
    memberchk(F, [float_integer_part, float_fractional_part]),
    integer(X), differential_beyond_float(X, 0.0), !,
    applied(9),
    throw(error(evaluation_error(float_overflow), context(system:F/1, _))).
differential_apply(float_integer_part, [X], V) :-
    integer(X), !,
    applied(9),
    V is float(X).
differential_apply(float_fractional_part, [X], V) :-
    integer(X), !,
    applied(9),
    V = 0.0.
% DIFFERENCES.md, entry 10: msb/1 and integer/1 are not evaluable in Charon's
% engine (neither is ISO): type_error(evaluable, F/1), as for any unknown one.
differential_apply(F, [_], _) :-
    memberchk(F, [msb, integer]), !,
    applied(10),
    throw(error(type_error(evaluable, F/1), context(system:(is)/2, _))).
% DIFFERENCES.md, entry 11: min/2 and max/2 of a float and an integer beyond the
% float range convert the integer, which overflows, in Charon's engine; SWI-Prolog
% compares them exactly.
differential_apply(F, [X, Y], _) :-
    memberchk(F, [min, max]),
    differential_beyond_float(X, Y), !,
    applied(11),
    throw(error(evaluation_error(float_overflow), context(system:F/2, _))).
% DIFFERENCES.md, entry 16: round/1 of a float whose value is an integer of 2^52
% or more (every such float is) is that integer; SWI-Prolog 9.0.4 answers
% 9223372036854775807 for round(9223372036854775808.0) (2^63), one less than it.
% truncate/1 gives the float's own value there.
differential_apply(round, [X], V) :-
    float(X), abs(X) >= 4503599627370496.0, !,
    (   X =:= 9223372036854775808.0 -> applied(16) ; true ),
    V is truncate(X).
differential_apply(F, Vs, V) :-
    E =.. [F|Vs],
    V is E.

differential_beyond_float(X, Y) :-
    (   float(X), integer(Y) -> I = Y
    ;   integer(X), float(Y) -> I = X
    ),
    abs(I) > 179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.

differential_compare(Op, X, Y) :-
    C =.. [Op, X, Y],
    call(C).

applied(N) :-
    (   nb_current(differential_applied, Ns) -> true ; Ns = [] ),
    nb_setval(differential_applied, [N|Ns]).

print_applied :-
    (   nb_current(differential_applied, Ns) -> true ; Ns = [] ),
    forall(member(N, Ns), format("applied ~w~n", [N])),
    nb_setval(differential_applied, []).

user:goal_expansion(V is E, differential_is(V, E)) :-
    iso_arith.
user:goal_expansion(call(G), differential_call(G)) :-
    iso_arith.
user:goal_expansion(G, differential_call(G)) :-
    iso_arith,
    compound(G), G =.. [Op, _, _], memberchk(Op, [=:=, =\=, <, >, =<, >=]).
