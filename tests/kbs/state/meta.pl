% An operation that calls a goal built at run time: Charon cannot prove what it
% does, so it treats it as a write and keeps a single worker.
:- use_module(library(lists)).
:- dynamic(value/1).
value(1).

%! apply_named(+Name:atom, +Value:int) is semidet.
apply_named(Name, V) :- G =.. [Name, V], call(G).

add(V) :- assertz(value(V)).
check(V) :- value(V).

%! values(-Vs:list(int)) is det.
values(Vs) :- findall(V, value(V), Vs).
