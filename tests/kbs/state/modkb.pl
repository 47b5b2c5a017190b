% A knowledge base that is a module, with an operator of its own that it uses and
% then removes, and dynamic predicates that live in the module.
:- module(modkb, [put_rule/2, holds/2, rules/1, drop_rule/1]).
:- use_module(library(lists)).
:- op(700, xfx, ===>).

:- dynamic(rule/1).
rule(rain ===> wet).

%! put_rule(+From:atom, +To:atom) is det.
put_rule(A, B) :- assertz(rule(A ===> B)).

%! holds(+From:atom, -To:atom) is nondet.
holds(A, B) :- rule(A ===> B).
holds(A, C) :- rule(A ===> B), B \== A, rule(B ===> C).

%! rules(-Rules:list(atom)) is det.
rules(Rs) :- findall(R, (rule(A ===> B), atom_concat(A, '>', X), atom_concat(X, B, R)), Rs).

%! drop_rule(+From:atom) is semidet.
drop_rule(A) :- retract(rule(A ===> _)).

:- op(0, xfx, ===>).
