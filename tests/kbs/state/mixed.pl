% State changed in every way the rewriting records: module-qualified mutators, a
% mutator in a module loaded with use_module, a DCG that asserts, the blackboard,
% floats, writes that fail or throw after changing something, and a retract
% reached through a closure (replicated by a full dump).

:- use_module(library(lists)).
:- use_module(library(dcgs)).
:- use_module('tags.pl').

:- dynamic(counter/1).
:- dynamic(note/2).
:- dynamic(seen/1).
:- dynamic(hook/1).

% A rule added at load time by a directive: its raw retract is not recorded.
:- initialization(assertz((hook(K) :- retract(note(K, _))))).


counter(0).
note(start, 0.1).

%! bump(-N:int) is det.
%  Adds one to the counter, through module-qualified calls.
bump(N) :-
    user:retract(counter(C)),
    N is C + 1,
    user:assertz(counter(N)).

%! get_counter(-N:int) is det.
get_counter(N) :- counter(N).

%! add_note(+Key:atom, +Value:float) is det.
add_note(K, V) :- assertz(note(K, V)).

%! first_note(+Key:atom) is semidet.
%  Moves the notes of Key to the front.
first_note(K) :-
    findall(V, retract(note(K, V)), Vs),
    Vs \== [],
    forall(member(V, Vs), asserta(note(K, V))).

%! notes(-Notes:list(float)) is det.
notes(Vs) :- findall(V, note(_, V), Vs).

%! note_keys(-Keys:list(atom)) is det.
note_keys(Ks) :- findall(K, note(K, _), Ks).

%! drop_note(+Key:atom) is semidet.
%  Removes one note of Key through a closure: not recorded, copied by a full dump.
drop_note(K) :- maplist(retract, [note(K, _)]).

%! put_then_fail(+Key:atom) is semidet.
put_then_fail(K) :- assertz(note(K, 9.5)), fail.

%! put_then_throw(+Key:atom) is det.
put_then_throw(K) :- assertz(note(K, 7.25)), retract(counter(_)), throw(oops(K)).

%! scan(+Text:string) is det.
%  Records every character of Text (a DCG that asserts).
scan(Cs) :- phrase(chars, Cs).
chars --> [].
chars --> [C], { ( seen(C) -> true ; assertz(seen(C)) ) }, chars.

%! seen_chars(-Chars:list(atom)) is det.
seen_chars(Cs) :- findall(C, seen(C), Cs0), msort(Cs0, Cs).

%! set_mood(+Mood:atom) is det.
set_mood(M) :- bb_put(mood, M).

%! mood(-Mood:atom) is semidet.
mood(M) :- bb_get(mood, M).

%! tag(+Tag:atom) is det.
tag(T) :- add_tag(T).

%! all_tags(-Tags:list(atom)) is det.
all_tags(Ts) :- tags(Ts).

%! clear is det.
clear :- retractall(note(_, _)), retractall(seen(_)), clear_tags.

%! mix(+Key:atom) is det.
%  A recorded assertz and an unrecorded retract in one write (a full dump).
mix(K) :- assertz(note(K, 1.5)), ( maplist(retract, [note(start, _)]) -> true ; true ).

%! unhook(+Key:atom) is semidet.
%  Calls the rule the directive added.
unhook(K) :- hook(K).

%! add_scratch(+Value:int) is det.
%  Asserts into a module named by the clause itself.
add_scratch(X) :- assertz(scratch:x(X)).

%! scratch(-Values:list(int)) is det.
scratch(Xs) :- findall(X, scratch:x(X), Xs).

%! drop_then_fail(+Key:atom) is semidet.
%  An unrecorded change, then failure: nothing of it may survive.
drop_then_fail(K) :- ( maplist(retract, [note(K, _)]) -> true ; true ), fail.
