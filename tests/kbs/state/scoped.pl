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

% Reads by key (the answer cache forgets them by the key's value, see
% analysis/keys.rs), and writes that defeat a key.

:- dynamic(lvl/2).
:- dynamic(boss/2).

boss(bob, alice).

%! grant_everyone(+Role:atom) is det.
%  A clause whose first argument is a variable: it holds for every user.
grant_everyone(R) :- assertz(grant(_, R)).

%! revoke_user(+User:atom) is det.
revoke_user(U) :- retractall(grant(U, _)).

%! revoke_everything is det.
revoke_everything :- retractall(grant(_, _)).

%! set_lvl(+N:int, +L:atom) is det.
set_lvl(N, L) :- retractall(lvl(N, _)), assertz(lvl(N, L)).

%! set_boss(+User:atom, +Boss:atom) is det.
set_boss(U, B) :- retractall(boss(U, _)), assertz(boss(U, B)).

%! lvl_of(+N:int, -L:atom) is semidet.
%  By an integer key.
lvl_of(N, L) :- lvl(N, L).

%! boss_roles(+User:atom, -Roles:list(atom)) is det.
%  The boss's roles: keyed by User for boss/2 only, not for grant/2.
boss_roles(U, Rs) :- ( boss(U, B) -> findall(R, grant(B, R), Rs) ; Rs = [] ).

%! reach(+User:atom, -Roles:list(atom)) is det.
%  Through a recursive rule that passes the key on unchanged.
reach(U, Rs) :- findall(R, holds(U, R, 3), Rs0), sort(Rs0, Rs).

holds(U, R, _) :- grant(U, R).
holds(U, R, N) :- N > 0, N1 is N - 1, holds(U, R0, N1), implies(R0, R).

implies(admin, viewer).
implies(viewer, guest).

%! users_of(+Role:atom, -Users:list(atom)) is det.
%  Keyed by Role at grant/2's second argument.
users_of(R, Us) :- findall(U, ( grant(U, R), atom(U) ), Us0), sort(Us0, Us).
