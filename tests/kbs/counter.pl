% Fixture: a dynamic database changed by calls.

:- use_module(library(lists)).
:- dynamic(counter/1).
:- dynamic(pair/2).
:- dynamic(note/1).

counter(0).

%! put_increment(-New:int) is det.
put_increment(N) :- retract(counter(N0)), N is N0 + 1, assertz(counter(N)).
%! get_counter(-N:int) is det.
get_counter(N) :- counter(N).
%! put_pair(+K:int) is det.
%  Asserts two facts; no reader may ever see one without the other.
put_pair(K) :- assertz(pair(K, a)), assertz(pair(K, b)).
%! get_torn(-K:int) is nondet.
%  Keys with one half of a pair only (must always be empty).
get_torn(K) :- pair(K, a), \+ pair(K, b).
get_torn(K) :- pair(K, b), \+ pair(K, a).
%! count_pairs(-N:int) is det.
count_pairs(N) :- findall(K, pair(K, a), Ks), length(Ks, N).
%! put_note_then_fail(+X:atom) is semidet.
put_note_then_fail(X) :- assertz(note(X)), fail.
%! put_note_then_throw(+X:atom) is det.
put_note_then_throw(X) :- assertz(note(X)), throw(oops).
%! put_note(+X:atom) is det.
put_note(X) :- assertz(note(X)).
%! get_notes(-Xs:list(atom)) is det.
get_notes(Xs) :- findall(X, note(X), Xs).
