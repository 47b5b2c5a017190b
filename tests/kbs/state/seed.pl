% Every worker loads the knowledge base itself: a directive that asserts a random
% number would give each worker a state of its own, so the engine keeps one worker.
:- use_module(library(random)).
:- dynamic(seed/1).

:- initialization((random_integer(1, 1000000, X), assertz(seed(X)))).

%! get_seed(-X:int) is det.
get_seed(X) :- seed(X).
