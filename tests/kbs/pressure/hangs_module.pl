% Loading never ends: an initialization goal of a module loops.
:- module(hangs_module, [hello/1]).
:- initialization(forever).

%! hello(-X:atom) is det.
hello(world).

forever :- forever_from(0).
forever_from(N) :- N1 is N + 1, forever_from(N1).
