/*  Reproductions of the engine's wrong answers, hangs and panics on the dynamic
    database, each checked against SWI-Prolog's answer by
    tests/e2e/differential.rs (through the library, the `charon` binary and the
    HTTP router). Every operation starts from the state it needs, so that each is
    one call and the calls do not depend on their order, except put_tag and
    delete_tag, which are also called one after the other.
*/

:- use_module(library(lists)).

:- dynamic(kv/2).
:- dynamic(tag/2).
:- dynamic(p/1).
:- dynamic(mk/2).

tag(k0, t00).

%! dup(-L:list(int)) is det.
%
%  assertz after a retract of the last clause of a key. SWI-Prolog: [1,3,4].
dup(L) :-
    retractall(kv(k, _)),
    assertz(kv(k, 1)), assertz(kv(k, 2)), retract(kv(k, 2)),
    assertz(kv(k, 3)), assertz(kv(k, 4)),
    findall(V, kv(k, V), L).

%! dup_a(-L:list(int)) is det.
%
%  asserta after a retract of the first clause of a key. SWI-Prolog: [3,1,4].
dup_a(L) :-
    retractall(kv(a, _)),
    assertz(kv(a, 1)), asserta(kv(a, 2)), retract(kv(a, _)),
    asserta(kv(a, 3)), assertz(kv(a, 4)),
    findall(V, kv(a, V), L).

%! put_tag(+K:atom, +T:atom) is det.
%
%  The upsert idiom.
put_tag(K, T) :- ( tag(K, T) -> true ; assertz(tag(K, T)) ).

%! delete_tag(+K:atom, +T:atom) is det.
%
%  The delete idiom.
delete_tag(K, T) :- ( retract(tag(K, T)) -> true ; true ).

%! get_tags(-L:list(list(atom))) is det.
%
%  Every tag as [K, T].
get_tags(L) :- findall([K, T], tag(K, T), L).

%! tag_sequence(-L:list(list(atom))) is det.
%
%  From the initial tags: put t04, put t07, delete t07, put t07 on k0, in one
%  call. SWI-Prolog: [[k0,t00],[k0,t04],[k0,t07]].
tag_sequence(L) :-
    retractall(tag(_, _)), assertz(tag(k0, t00)),
    put_tag(k0, t04), put_tag(k0, t07), delete_tag(k0, t07), put_tag(k0, t07),
    get_tags(L).

%! sweep_clauses(-Left:list(int)) is det.
%
%  forall(clause(...), retract(...)): SWI-Prolog succeeds and none is left ([]).
sweep_clauses(Left) :-
    retractall(p(_)),
    assertz(p(2)), assertz(p(4)),
    forall(clause(p(V), true), retract(p(V))),
    findall(V, p(V), Left).

%! drain_twins(-L:list(atom)) is det.
%
%  Retracts inside the iteration that lists them, two equal clauses.
%  SWI-Prolog: [a,a].
drain_twins(L) :-
    retractall(kv(q, _)),
    assertz(kv(q, a)), assertz(kv(q, a)),
    findall(V, (kv(q, V), retract(kv(q, V))), L).

%! grow_unseen(-Seen:list(atom), -After:list(atom)) is det.
%
%  Asserts inside the iteration: the iteration does not see the new clauses
%  (logical update view). SWI-Prolog: Seen [a,b], After [a,b,c,c].
grow_unseen(Seen, After) :-
    retractall(kv(g, _)),
    assertz(kv(g, a)), assertz(kv(g, b)),
    findall(V, (kv(g, V), assertz(kv(g, c))), Seen),
    findall(V, kv(g, V), After).

%! cut_condition(-R:atom) is det.
%
%  A cut in the condition of if-then-else is local to it. SWI-Prolog: else.
cut_condition(R) :- ( ( !, fail ) -> R = then ; R = else ).

/*  Found by the differential test (tests/e2e/differential.rs), shrunk. */

:- dynamic(r/1).

%! sweep_key(-Left:list(int)) is det.
%
%  forall(clause(...), retract(...)) over the clauses of one key of several.
%  SWI-Prolog: none left ([]).
sweep_key(Left) :-
    retractall(kv(s, _)), retractall(kv(t, _)),
    assertz(kv(s, 1)), assertz(kv(s, 2)), assertz(kv(t, 1)),
    forall(clause(kv(s, V), true), retract(kv(s, V))),
    findall(V, kv(s, V), Left).

%! asserta_unseen(-Seen:list(atom)) is det.
%
%  asserta/1 inside the iteration: the iteration does not see the new clauses.
%  SWI-Prolog: [a,b].
asserta_unseen(Seen) :-
    retractall(kv(e, _)),
    assertz(kv(e, a)), assertz(kv(e, b)),
    findall(V, (kv(e, V), asserta(kv(e, c))), Seen).

%! scan_after_retract(-L:list(atom)) is det.
%
%  A lookup bound on the second argument, of the value of the clause that was
%  asserted last and retracted (three clauses, distinct keys; it hangs).
%  SWI-Prolog: [].
scan_after_retract(L) :-
    retractall(kv(_, _)),
    assertz(kv(b, x)), assertz(kv(c, y)), assertz(kv(d, z)),
    retract(kv(d, z)),
    findall(K, kv(K, z), L).

%! recreate(-R:atom) is det.
%
%  retractall/1 of an abolished procedure creates it again, dynamic (ISO
%  Cor.2 8.9.5): calling it fails. SWI-Prolog: none.
recreate(R) :-
    abolish(r/1),
    retractall(r(_)),
    catch(( r(_) -> R = found ; R = none ), error(E, _), ( functor(E, R, _) )).

%! unindexed_after_retract(-L:list(int)) is det.
%
%  assertz/1 of a clause whose first argument is a variable, after a retract of
%  the first clause of an indexed run (the engine panicked). SWI-Prolog: [0,1].
unindexed_after_retract(L) :-
    retractall(mk(_, _)),
    assertz(mk(a, 1)), assertz(mk(b, 0)),
    retract(mk(a, _)),
    assertz(mk(_, 1)),
    findall(V, mk(b, V), L).

%! run_after_asserta(-L:list(int)) is det.
%
%  After an asserta/1, a clause indexed on another argument, then a clause of the
%  first run's key: a call meets them in clause order (the engine put the last one
%  into the first run, before the middle one). SWI-Prolog: [1,1,0].
run_after_asserta(L) :-
    retractall(mk(_, _)),
    assertz(mk(a, 1)), asserta(mk(b, 2)), assertz(mk(_, 1)), assertz(mk(a, 0)),
    findall(V, mk(a, V), L).

%! big_key(-L:list(int)) is det.
%
%  A call whose indexed argument is a big integer, among clauses of other keys
%  (the engine found none). SWI-Prolog: [1,3].
big_key(L) :-
    retractall(mk(_, _)),
    assertz(mk(100000000000000000000, 1)), assertz(mk(a, 2)),
    assertz(mk(100000000000000000000, 3)),
    K is 10^20,
    findall(V, mk(K, V), L).

/*  A dynamic fact's clause/2 entry runs the fact's own code (engine item 22). */

:- dynamic(cf/3).
:- dynamic(cl/2).

cl(k1, "one").
cl(k2, f(Y, Y)).
cl(k3, 3).

%! clause_of_facts(-L:list(atom)) is det.
%
%  clause/2 and retract/1 on facts asserted (with strings, shared variables,
%  nested terms) and loaded: the heads clause/2 finds, in order; the shared
%  variable kept; a body other than true refused; the heads retracted while
%  clause/2 lists them, none left after; the loaded facts as written. SWI-Prolog:
%  [a,b,c,shared,nobody,h,a,b,c,none,loaded,ok].
clause_of_facts(L) :-
    retractall(cf(_, _, _)),
    assertz(cf(a, "ab", g(1, X, X))), assertz(cf(b, [1,2], _)), assertz(cf(c, x, h)),
    findall(K, clause(cf(K, _, _), true), Heads),
    ( clause(cf(a, S, g(1, Y, Z)), B), S == "ab", Y == Z, B == true -> Shared = shared ; Shared = lost ),
    ( clause(cf(_, _, _), foo) -> Body = body ; Body = nobody ),
    ( clause(cf(c, x, H), true), H == h -> Third = h ; Third = noh ),
    findall(K, (clause(cf(K, _, _), true), retract(cf(K, _, _))), Retracted),
    ( clause(cf(_, _, _), _) -> Left = some ; Left = none ),
    (   clause(cl(k2, f(P, Q)), true), P == Q,
        clause(cl(k1, "one"), true),
        \+ clause(cl(k3, 4), _)
    ->  Loaded = loaded
    ;   Loaded = changed
    ),
    ( retract((cf(_, _, _) :- true)) -> Again = left ; Again = ok ),
    append(Heads, [Shared, Body, Third|Retracted], L0),
    append(L0, [Left, Loaded, Again], L).

/*  A complete string in a head is one instruction (engine item 23). As scryer
    reads them: lists of characters. */

:- set_prolog_flag(double_quotes, chars).

:- dynamic(sv/2).

sv(a, "hello").
sv(b, "").
sv(c, "héllo wörld").
sv(d, [h|T]) :- T = "ey".
st(x, "abc").
st(y, "abd").

%! strings_in_heads(-L:list(atom)) is det.
%
%  Lookups of facts whose arguments are strings: by the whole string, by the
%  empty one, by a list pattern, by a string bound in the call, by a prefix
%  (which must not match). SWI-Prolog: [a,b,a,c,d,x,y,y,'héllo wörld',a,none].
strings_in_heads(L) :-
    findall(K, sv(K, "hello"), L1),
    findall(K, sv(K, ""), L2),
    findall(K, sv(K, [_|_]), L3),
    findall(K, st(K, [a,b,_]), L4),
    findall(K, st(K, "abd"), L5),
    ( sv(c, S), atom_chars(A, S) -> L6 = [A] ; L6 = [] ),
    findall(K, (sv(K, X), X == "hello"), L7),
    ( st(x, "ab") -> L8 = [prefix] ; L8 = [none] ),
    append([L1, L2, L3, L4, L5, L6, L7, L8], L).

/*  Found by a hostile review of engine items 22 and 23 (items 22 and 24). */

:- use_module(library(dif)).

:- dynamic(cb/1).
:- dynamic(pq/1).

cb(one).
cb(two).
ps([a|_]).
pq([a|_]).
iv(13, g).
iv(14, c).
iv(15, xy).

%! clause_body_constrained(-L:list(atom)) is det.
%
%  clause/2 and retract/1 on facts, with Body under dif/2: the facts as loaded
%  and as asserted with asserta/1. SWI-Prolog: [one,two,two,one,retracted].
clause_body_constrained(L) :-
    retractall(cb(_)), assertz(cb(one)), assertz(cb(two)),
    findall(X, (dif(B1, foo), clause(cb(X), B1)), L1),
    retractall(cb(_)), asserta(cb(one)), asserta(cb(two)),
    findall(X, (dif(B2, foo), clause(cb(X), B2)), L2),
    ( dif(B3, foo), retract((cb(two) :- B3)) -> R = retracted ; R = kept ),
    append([L1, L2, [R]], L).

%! partial_string_heads(-L:list(atom)) is det.
%
%  A head `[a|_]` (a partial string) against compounds whose first argument is a:
%  no match, by a call, clause/2 or retract/1. SWI-Prolog: [fails,fails,fails,kept].
partial_string_heads([A, B, C, D]) :-
    ( ps(f(a, b)) -> A = matches ; A = fails ),
    ( clause(pq(g(a, z, z)), true) -> B = matches ; B = fails ),
    ( retract(pq(h(a))) -> C = removed ; C = fails ),
    ( pq([a, b]) -> D = kept ; D = lost ).

%! index_by_computed_integer(-L:list(atom)) is det.
%
%  A first-argument lookup by a small integer computed through big integers.
%  SWI-Prolog: [c,c].
index_by_computed_integer([A, B]) :-
    S = 1103527590,
    S1 is (S * 1103515245 + 12345) mod 2147483648,
    I is (S1 // 65536) mod 16,
    ( iv(I, X) -> A = X ; A = none ),
    ( iv(14, Y) -> B = Y ; B = none ).

:- use_module(repros_mod).

%! clause_in_a_module(-L:list(list(int))) is det.
%
%  clause/2 of a module's dynamic predicate, called unqualified inside the module,
%  before and after an assertz/1 there, and qualified (0.10.0 looked in user and
%  found nothing). SWI-Prolog: [[1,2],[1,2,3],[1,2]].
clause_in_a_module(L) :-
    module_clauses(L).

/*  Found while taking dynamic facts out of '$clause'/2 (engine item 26). */

:- dynamic(ea/2).
:- dynamic(eb/2).
:- dynamic(ec/1).

ea(k1, one).
ea(k2, two).
ec(z).

%! facts_beside_entries(-L:list(list(list(atom)))) is det.
%
%  clause/2 and retract/1 on a predicate of facts only (which have no
%  '$clause'/2 entries) while another predicate has one asserta'd fact, the only
%  entry; then on one that mixes asserta'd facts, appended facts and rules, in
%  clause order. Each pair is [K, V]. SWI-Prolog: [[[k1,one],[k2,two]],
%  [[k1,one],[k2,two]],[],[[e,d]],[[a,x],[b,y],[r,x],[c,z]],[[b,y],[r,x]],[],[],
%  [[z,true]]].
facts_beside_entries([L1, L2, L3, L4, L5, L6, L7, L8, L9]) :-
    retractall(eb(_, _)),
    asserta(eb(e, d)),
    findall([K, V], clause(ea(K, V), true), L1),
    findall([K, V], ea(K, V), L2),
    forall(clause(ea(K1, V1), true), retract(ea(K1, V1))),
    findall([K, V], ea(K, V), L3),
    assertz(ea(k1, one)), assertz(ea(k2, two)),
    findall([K, V], clause(eb(K, V), true), L4),
    retractall(eb(_, _)),
    assertz(eb(b, y)), asserta(eb(a, x)), assertz((eb(r, X) :- X = x)),
    assertz(eb(c, z)),
    findall([K, V], eb(K, V), L5),
    retract(eb(a, _)), retract(eb(c, z)),
    findall([K, V], eb(K, V), L6),
    retract((eb(r, _) :- _)), retract(eb(b, y)),
    findall([K, V], eb(K, V), L7),
    findall([K, B], clause(eb(K, _), B), L8),
    findall([N, B], clause(ec(N), B), L9).

:- dynamic(ia/2).
:- dynamic(iz/0).
ia(f(X), Y) :- Y = X.

%! asserta_beside_structure_keys(-L:list(list(atom))) is det.
%
%  A clause asserta'd and one assertz'd with one constant key, in a predicate whose
%  clause loaded from the file is indexed on a structure: a call by that key meets
%  both (the engine met the assertz'd one only), as do clause/2 by the key and a
%  call with the argument unbound; then the same for an arity-0 predicate, whose
%  clause/2 goes through '$clause'/2 (whose loaded entries have structure keys).
%  SWI-Prolog: [[true,true],[true,true],[a,f,a],[true,true]].
asserta_beside_structure_keys([L1, L2, L3, L4]) :-
    retractall(ia(a, _)),
    retractall(iz),
    asserta(ia(a, true)),
    assertz(ia(a, true)),
    findall(B, ia(a, B), L1),
    findall(B, clause(ia(a, _), B), L2),
    findall(N, ( ia(K, _), functor(K, N, _) ), L3),
    asserta(iz),
    assertz(iz),
    findall(B, clause(iz, B), L4).
