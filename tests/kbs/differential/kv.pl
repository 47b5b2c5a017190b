/*  The dynamic database, operation by operation: the knowledge base that
    tests/e2e/differential.rs runs, in random sequences, through Charon and through
    SWI-Prolog (swi_driver.pl), comparing every answer.

    kv/2 holds integer keys and values (the test draws both from small ranges, so
    that the same clause is asserted twice, retracted while it is listed, and so
    on); tag/2 holds atoms, changed by the upsert and delete idioms of a knowledge
    base of tags. Every answer is a JSON value: integers, lists of them, lists of
    [Key, Value] pairs, booleans, atoms.

    The file is plain ISO Prolog plus findall/3, forall/2 and length/2, so that both
    systems consult it unchanged.
*/

:- use_module(library(lists)).

:- dynamic(kv/2).
:- dynamic(tag/2).
:- dynamic(cf/2).
:- dynamic(mix/2).
:- dynamic(lm/2).

kv(1, 1).
kv(1, 2).
kv(2, 1).
kv(3, 3).

tag(k0, t00).

%! add_z(+K:int, +V:int) is det.
%
%  assertz/1.
add_z(K, V) :- assertz(kv(K, V)).

%! add_a(+K:int, +V:int) is det.
%
%  asserta/1.
add_a(K, V) :- asserta(kv(K, V)).

%! take(+K:int, +V:int, -R:list(list(int))) is det.
%
%  Retracts the first clause kv(K, V): [[K, V]], or [] when there is none.
take(K, V, R) :- ( retract(kv(K, V)) -> R = [[K, V]] ; R = [] ).

%! take_key(+K:int, -R:list(int)) is det.
%
%  Retracts the first clause of key K, value unbound: [V], or [].
take_key(K, R) :- ( retract(kv(K, V)) -> R = [V] ; R = [] ).

%! take_val(+V:int, -R:list(int)) is det.
%
%  Retracts the first clause of value V, key unbound: [K], or [].
take_val(V, R) :- ( retract(kv(K, V)) -> R = [K] ; R = [] ).

%! take_semi(+K:int, -V:int) is semidet.
%
%  retract/1 as the whole body of a semidet operation: the value, or null.
take_semi(K, V) :- retract(kv(K, V)).

%! take_each(+K:int, -V:int) is nondet.
%
%  retract/1 as the whole body of a nondet operation: every solution is taken,
%  so every clause of key K that existed when the call started is retracted.
take_each(K, V) :- retract(kv(K, V)).

%! drop_key(+K:int) is det.
%
%  retractall/1, key bound.
drop_key(K) :- retractall(kv(K, _)).

%! drop_val(+V:int) is det.
%
%  retractall/1, value bound.
drop_val(V) :- retractall(kv(_, V)).

%! drop_pair(+K:int, +V:int) is det.
%
%  retractall/1, both bound.
drop_pair(K, V) :- retractall(kv(K, V)).

%! vals(+K:int, -L:list(int)) is det.
%
%  The values of key K, in database order (a lookup bound on the first argument).
vals(K, L) :- findall(V, kv(K, V), L).

%! keys(+V:int, -L:list(int)) is det.
%
%  The keys with value V (a lookup bound on the second argument).
keys(V, L) :- findall(K, kv(K, V), L).

%! all(-L:list(list(int))) is det.
%
%  Every clause as [K, V] (a lookup bound on neither).
all(L) :- findall([K, V], kv(K, V), L).

%! count(+K:int, +V:int, -N:int) is det.
%
%  How many clauses kv(K, V) there are (a lookup bound on both).
count(K, V, N) :- findall(x, kv(K, V), Xs), length(Xs, N).

%! has(+K:int, +V:int) is semidet.
%
%  True when kv(K, V) holds.
has(K, V) :- kv(K, V), !.

%! absent(+K:int, +V:int, -B:bool) is det.
%
%  Negation as failure.
absent(K, V, B) :- ( \+ kv(K, V) -> B = true ; B = false ).

%! first(+K:int, -V:int) is semidet.
%
%  The first value of key K, or null.
first(K, V) :- kv(K, V), !.

%! each(+K:int, -V:int) is nondet.
%
%  The values of key K, one solution each.
each(K, V) :- kv(K, V).

%! pairs(-K:int, -V:int) is nondet.
%
%  Every clause, one solution each.
pairs(K, V) :- kv(K, V).

%! clauses(-L:list(list(int))) is det.
%
%  Every clause as clause/2 lists it.
clauses(L) :- findall([K, V], clause(kv(K, V), true), L).

%! clauses_of(+K:int, -L:list(int)) is det.
%
%  The values of key K as clause/2 lists them.
clauses_of(K, L) :- findall(V, clause(kv(K, V), true), L).

%! drain(+K:int, -L:list(int)) is det.
%
%  Retracts inside a running iteration: every value of key K, each retracted as
%  it is met.
drain(K, L) :- findall(V, (kv(K, V), retract(kv(K, V))), L).

%! drain_all(-L:list(list(int))) is det.
%
%  The same over every clause.
drain_all(L) :- findall([K, V], (kv(K, V), retract(kv(K, V))), L).

%! grow(+K:int, +V:int, -L:list(int)) is det.
%
%  Asserts inside a running iteration: kv(K, V) is upserted for each value of key
%  K met. The iteration must not see the clause it added (logical update view):
%  L is the values of K before the call.
grow(K, V, L) :- findall(V0, (kv(K, V0), ( kv(K, V) -> true ; assertz(kv(K, V)) )), L).

%! grow_each(+K:int, +V:int, -L:list(int)) is det.
%
%  assertz/1 of kv(K, V) once per value of key K met (the key's clauses double;
%  nothing is done when it has more than 8). L is the values before the call.
grow_each(K, V, L) :-
    findall(V0, kv(K, V0), Vs),
    length(Vs, N),
    (   N > 8
    ->  L = []
    ;   findall(V0, (kv(K, V0), asserta(kv(K, V))), L)
    ).

%! sweep(+K:int) is det.
%
%  forall(clause(...), retract(...)) over the clauses of key K.
sweep(K) :- forall(clause(kv(K, V), true), retract(kv(K, V))).

%! sweep_all is det.
%
%  The same over every clause.
sweep_all :- forall(clause(kv(K, V), true), retract(kv(K, V))).

%! move(+K:int, +K2:int) is det.
%
%  Every clause of key K retracted and asserted again under key K2, in a
%  failure-driven loop over retract/1 (when K = K2 the loop must not meet the
%  clauses it adds).
move(K, K2) :- forall(retract(kv(K, V)), assertz(kv(K2, V))).

%! upsert(+K:int, +V:int) is det.
%
%  Adds kv(K, V) unless it holds.
upsert(K, V) :- ( kv(K, V) -> true ; assertz(kv(K, V)) ).

%! delete(+K:int, +V:int) is det.
%
%  Retracts kv(K, V) if it holds.
delete(K, V) :- ( retract(kv(K, V)) -> true ; true ).

%! replace(+K:int, +V:int) is det.
%
%  Retracts the first clause of key K, if any, then adds kv(K, V).
replace(K, V) :- ( retract(kv(K, _)) -> true ; true ), assertz(kv(K, V)).

%! bump(+K:int, -V:int) is det.
%
%  Retracts the first clause of key K and adds its value plus one (mod 5) at the
%  end; 0 when the key had none.
bump(K, V) :- ( retract(kv(K, V0)) -> V is (V0 + 1) mod 5 ; V = 0 ), assertz(kv(K, V)).

%! script(+Steps:list(list(int)), -Log:list(list(int))) is det.
%
%  Several changes and lookups in one call, step by step; Log has one entry per
%  step: [Op, K, V] is assertz(kv(K, V)) when Op is 0 ([]), asserta when 1 ([]),
%  retract(kv(K, V)) when 2 ([1] or [0]), retract(kv(K, X)) when 3 ([X] or []),
%  retractall(kv(K, _)) when 4 ([]), the values of K when 5, the keys of V when 6,
%  and every clause, flattened to [K1, V1, K2, V2, ...], when 7.
script(Steps, Log) :- maplist(step, Steps, Log).

step([0, K, V], []) :- assertz(kv(K, V)).
step([1, K, V], []) :- asserta(kv(K, V)).
step([2, K, V], R) :- ( retract(kv(K, V)) -> R = [1] ; R = [0] ).
step([3, K, _], R) :- ( retract(kv(K, X)) -> R = [X] ; R = [] ).
step([4, K, _], []) :- retractall(kv(K, _)).
step([5, K, _], L) :- findall(V, kv(K, V), L).
step([6, _, V], L) :- findall(K, kv(K, V), L).
step([7, _, _], L) :- findall(X, ( kv(K, V), ( X = K ; X = V ) ), L).

%! add_then_fail(+K:int, +V:int) is semidet.
%
%  assertz/1, then failure: Charon keeps none of a failed call's changes
%  (DIFFERENCES.md, entry 1).
add_then_fail(K, V) :- assertz(kv(K, V)), fail.

%! take_then_throw(+K:int) is det.
%
%  Retracts the first clause of key K, if any, then raises: Charon keeps none of
%  the changes of a call that raised (DIFFERENCES.md, entry 1).
take_then_throw(K) :- ( retract(kv(K, _)) -> true ; true ), throw(error(stopped, take_then_throw/1)).

%! wipe is det.
%
%  abolish/1: kv/2 is no longer defined (calling it is an existence error) until
%  a clause is asserted again.
wipe :- abolish(kv/2).

%! reset is det.
%
%  Back to the initial clauses (the test's sequences are episodes that each start
%  here, so that one difference does not make every later answer differ).
reset :-
    retractall(kv(_, _)),
    assertz(kv(1, 1)), assertz(kv(1, 2)), assertz(kv(2, 1)), assertz(kv(3, 3)),
    retractall(tag(_, _)),
    assertz(tag(k0, t00)),
    retractall(cf(_, _)),
    retractall(mix(_, _)),
    retractall(lm(_, _)).

%! put_tag(+K:atom, +T:atom) is det.
%
%  The upsert idiom on tag/2.
put_tag(K, T) :- ( tag(K, T) -> true ; assertz(tag(K, T)) ).

%! delete_tag(+K:atom, +T:atom) is det.
%
%  The delete idiom on tag/2.
delete_tag(K, T) :- ( retract(tag(K, T)) -> true ; true ).

%! tags(+K:atom, -Ts:list(atom)) is det.
%
%  The tags of K.
tags(K, Ts) :- findall(T, tag(K, T), Ts).

%! all_tags(-L:list(list(atom))) is det.
%
%  Every tag as [K, T].
all_tags(L) :- findall([K, T], tag(K, T), L).

%! load_cf(+F:atom) is det.
%
%  consult/1 of a file that defines cf/2 (cf_a.pl or cf_b.pl beside this file,
%  given by its path); loading a file again reconsults it. The file's clauses
%  replace every clause of cf/2, those asserted at run time too (DIFFERENCES.md,
%  entry 14).
load_cf(F) :- consult(F).

%! add_cf(+K:int, +V:int) is det.
%
%  assertz/1 on cf/2, whose clauses came from a file.
add_cf(K, V) :- assertz(cf(K, V)).

%! take_cf(+K:int, -R:list(int)) is det.
%
%  Retracts the first clause of key K of cf/2: [V], or [].
take_cf(K, R) :- ( retract(cf(K, V)) -> R = [V] ; R = [] ).

%! cf_vals(+K:int, -L:list(int)) is det.
%
%  The values of key K in cf/2 (a lookup bound on the first argument).
cf_vals(K, L) :- findall(V, cf(K, V), L).

%! cf_all(-L:list(list(int))) is det.
%
%  Every clause of cf/2 as [K, V].
cf_all(L) :- findall([K, V], cf(K, V), L).

%! load_during(+F:atom, -L:list(list(int))) is det.
%
%  consult/1 inside a running iteration over cf/2, at each clause of key 1: the
%  iteration goes on over the clauses it started with (logical update view).
load_during(F, L) :- findall([K, V], ( cf(K, V), ( K =:= 1 -> consult(F) ; true ) ), L).

/*  mix/2: first arguments of every kind in one predicate (atoms, small and big
    integers, a float, compounds, a list, and variables), so that a retract, a
    retractall and clause/2 with a bound first argument must find the clauses whose
    first argument is another kind of term, or a variable, as SWI-Prolog does. The
    key is chosen by its number (mix_key/2); number 7 is a fresh variable.
*/

mix_key(0, 0).
mix_key(1, 1).
mix_key(2, a).
mix_key(3, b).
mix_key(4, f(0)).
mix_key(5, f(a)).
mix_key(6, [1]).
mix_key(7, _).
mix_key(8, 100000000000000000000).
mix_key(9, 1.5).

%! add_mix(+K:int, +V:int) is det.
%
%  assertz/1 of mix(Key, V), Key the term numbered K.
add_mix(K, V) :- mix_key(K, Key), assertz(mix(Key, V)).

%! add_mix_a(+K:int, +V:int) is det.
%
%  asserta/1 of mix(Key, V).
add_mix_a(K, V) :- mix_key(K, Key), asserta(mix(Key, V)).

%! take_mix(+K:int, -R:list(int)) is det.
%
%  retract/1 of the first clause that unifies with mix(Key, V): [V], or [].
take_mix(K, R) :- mix_key(K, Key), ( retract(mix(Key, V)) -> R = [V] ; R = [] ).

%! drop_mix(+K:int) is det.
%
%  retractall/1 of mix(Key, _).
drop_mix(K) :- mix_key(K, Key), retractall(mix(Key, _)).

%! mix_vals(+K:int, -L:list(int)) is det.
%
%  The values of the clauses that unify with mix(Key, V), by calling mix/2.
mix_vals(K, L) :- mix_key(K, Key), findall(V, mix(Key, V), L).

%! mix_clauses(+K:int, -L:list(int)) is det.
%
%  The same through clause/2.
mix_clauses(K, L) :- mix_key(K, Key), findall(V, clause(mix(Key, V), true), L).

%! mix_sweep(+K:int) is det.
%
%  forall(clause(...), retract(...)) over the clauses that unify with mix(Key, V).
mix_sweep(K) :- mix_key(K, Key), forall(clause(mix(Key, V), true), retract(mix(Key, V))).

/*  lm/2: clauses loaded from a file (lm_a.pl or lm_b.pl, by load_lm/1) whose first
    arguments are of every kind, a variable among them, then asserted at both ends
    and retracted by keys of every kind. A file's code and asserta/1's code are laid
    out differently, and a loaded clause with a variable first argument indexes
    the predicate on another argument. The key is chosen by its number (lm_key/2);
    number 6 is a fresh variable.
*/

lm_key(0, a).
lm_key(1, b).
lm_key(2, f(x)).
lm_key(3, f(y)).
lm_key(4, f(w)).
lm_key(5, [h]).
lm_key(6, _).
lm_key(7, 1).
lm_key(8, g(y)).
lm_key(9, 1.5).

%! load_lm(+F:atom) is det.
%
%  consult/1 of a file that defines lm/2 (lm_a.pl or lm_b.pl beside this file, by
%  its path): every clause of lm/2 is the file's (DIFFERENCES.md, entry 14).
load_lm(F) :- consult(F).

%! add_lm(+K:int, +V:int) is det.
%
%  assertz/1 of lm(Key, V), Key the term numbered K.
add_lm(K, V) :- lm_key(K, Key), assertz(lm(Key, V)).

%! add_lm_a(+K:int, +V:int) is det.
%
%  asserta/1 of lm(Key, V).
add_lm_a(K, V) :- lm_key(K, Key), asserta(lm(Key, V)).

%! take_lm(+K:int, -R:list(int)) is det.
%
%  retract/1 of the first clause that unifies with lm(Key, V) :- true: [V], or [].
take_lm(K, R) :- lm_key(K, Key), ( retract(lm(Key, V)) -> R = [V] ; R = [] ).

%! drop_lm(+K:int) is det.
%
%  retractall/1 of lm(Key, _).
drop_lm(K) :- lm_key(K, Key), retractall(lm(Key, _)).

%! lm_vals(+K:int, -L:list(int)) is det.
%
%  The values of the clauses that answer lm(Key, V), by calling lm/2.
lm_vals(K, L) :- lm_key(K, Key), findall(V, lm(Key, V), L).

%! lm_clauses(+K:int, -L:list(int)) is det.
%
%  The values of the clauses whose head unifies with lm(Key, V), through clause/2
%  (rules too: the body is not looked at).
lm_clauses(K, L) :- lm_key(K, Key), findall(V, clause(lm(Key, V), _), L).

%! lm_all(-L:list(int)) is det.
%
%  The values of every answer of lm(K, V), K unbound.
lm_all(L) :- findall(V, lm(_, V), L).
