% A knowledge base whose write can time out (tests/e2e/pressure.rs).
:- dynamic(note/1).

%! add_note(+N:integer) is det.
%  Records N.
add_note(N) :- assertz(note(N)).

%! add_note_slowly(+N:integer) is det.
%  Records N, then never ends.
add_note_slowly(N) :- assertz(note(N)), loop(0).
loop(N) :- N1 is N + 1, loop(N1).

%! notes(-Ns:list(integer)) is det.
%  Every note.
notes(Ns) :- findall(N, note(N), Ns).
