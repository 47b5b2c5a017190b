% A knowledge base that loads a library with operators and internal state of its
% own (clpz): its reads stay reads, and the library's own asserts are not recorded.
:- use_module(library(clpz)).
:- use_module(library(lists)).
:- dynamic(limit/1).
limit(9).

%! best(-X:int) is det.
best(X) :- limit(L), X in 0..L, X #\= 5, labeling([max(X)], [X]).

%! set_limit(+L:int) is det.
set_limit(L) :- retractall(limit(_)), assertz(limit(L)).
