% A dynamic predicate read by key whose loaded clauses include one that holds for
% every key (grant(_, guest)): removing a grant by one key may take that clause, so
% the answer cache must forget every key's answers at a removal (cache::Freshness,
% '$charon_loose'/4 in the wrapper). ext:rank/2 is the same in a module.

:- use_module(ext).
:- dynamic(grant/2).

grant(alice, admin).
grant(_, guest).

%! roles(+User:atom, -Roles:list(atom)) is det.
roles(U, Rs) :- findall(R, grant(U, R), Rs).

%! revoke(+User:atom, +Role:atom) is semidet.
revoke(U, R) :- retract(grant(U, R)).

%! ranks(+User:atom, -Ranks:list(int)) is det.
ranks(U, Rs) :- findall(R, ext:rank(U, R), Rs).

%! demote(+User:atom, +Rank:int) is semidet.
demote(U, R) :- retract(ext:rank(U, R)).
