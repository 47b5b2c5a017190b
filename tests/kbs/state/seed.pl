% Workers are forks of one load, but a lost template is loaded again: a directive
% that asserts a random number would then give new workers a state of their own, so
% the engine keeps one worker.
:- use_module(library(random)).
:- dynamic(seed/1).

:- initialization((random_integer(1, 1000000, X), assertz(seed(X)))).

%! get_seed(-X:int) is det.
get_seed(X) :- seed(X).
