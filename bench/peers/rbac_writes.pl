% Write operations added to examples/rbac.pl for the mixed-workload benchmark
% (scripts/bench-mixed.sh appends this file to a copy of it, after declaring
% direct_grant/2 dynamic). Both servers, Charon and the SWI-Prolog peer, serve the
% same two writes:
%
%   grant     changes direct_grant/2, which every permission check reads;
%   add_note  changes note/1, which no read looks at.

%! grant(+User:atom, +Perm:atom) is det.
%
%  Grants Perm to User directly. An existing grant is taken back and made anew, so
%  that every call changes the database.
%
%  @arg User A user id.
%  @arg Perm A permission.
grant(User, Perm) :-
    retractall(direct_grant(User, Perm)),
    assertz(direct_grant(User, Perm)).

:- dynamic(note/1).

%! add_note(+Text:atom) is det.
%
%  Records a note, which no read looks at.
%
%  @arg Text The note.
add_note(Text) :-
    assertz(note(Text)).
