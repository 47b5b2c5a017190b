% Reads that depend on some dynamic predicates and not others, for the answer
% cache that forgets only what a write can change: reads through rules, through a
% rule asserted at load and one asserted by a write, clause/2 and
% current_predicate/1 on a named predicate and on one known only when it runs,
% the blackboard, and a predicate of the same name in another module.

:- dynamic(grant/2).
:- dynamic(note/1).
:- dynamic(other/1).

:- initialization(assertz((linked(X) :- other(X)))).

grant(alice, admin).
perm(admin, deploy).
perm(admin, read).
perm(viewer, read).
other(1).

%! grant_role(+User:atom, +Role:atom) is det.
grant_role(U, R) :- assertz(grant(U, R)).

%! revoke(+User:atom, +Role:atom) is semidet.
revoke(U, R) :- retract(grant(U, R)).

%! add_note(+X:atom) is det.
add_note(X) :- assertz(note(X)).

%! add_m_note(+X:atom) is det.
%  A note/1 of module m: the same name and arity as user's.
add_m_note(X) :- assertz(m:note(X)).

%! add_other(+X:int) is det.
add_other(X) :- assertz(other(X)).

%! set_level(+L:int) is det.
set_level(L) :- bb_put(level, L).

%! link_note is det.
%  Adds a rule that reads note/1.
link_note :- ( clause(via_note(_), _) -> true ; assertz((via_note(X) :- note(X))) ).

%! roles(+User:atom, -Roles:list(atom)) is det.
roles(U, Rs) :- findall(R, grant(U, R), Rs).

%! can(+User:atom, +Perm:atom) is semidet.
can(U, P) :- grant(U, R), perm(R, P), !.

%! notes(-Xs:list(atom)) is det.
notes(Xs) :- findall(X, note(X), Xs).

%! others_by_clause(-Xs:list(int)) is det.
others_by_clause(Xs) :- findall(X, clause(other(X), true), Xs).

%! by_name(+Name:atom, -Xs:list) is det.
%  The facts of Name/1, found through clause/2 on a head built at run time.
by_name(N, Xs) :-
    findall(X, ( functor(H, N, 1), catch(clause(H, true), _, fail), arg(1, H, X) ), Xs).

%! has_pred(+Name:atom) is semidet.
has_pred(N) :- current_predicate(N/1).

%! level(-L:int) is semidet.
level(L) :- bb_get(level, L).

%! linked_all(-Xs:list(int)) is det.
linked_all(Xs) :- findall(X, linked(X), Xs).

%! via_notes(-Xs:list(atom)) is det.
via_notes(Xs) :- catch(findall(X, via_note(X), Xs), _, Xs = []).
