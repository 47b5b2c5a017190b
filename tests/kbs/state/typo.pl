% A documented predicate calls a predicate that no file defines (a typo): the call
% raises an existence error and changes nothing, so the knowledge base keeps all
% its workers, and `charon check` warns about the call.
:- use_module(library(between)).

%! spin(+N:int) is det.
%  Counts to N: slow for a large N.
spin(N) :- ( between(1, N, _), fail ; true ).

%! answer(-X:int) is det.
answer(42).

%! lookup(+K:atom, -V:int) is det.
%  Meant to read value/2.
lookup(K, V) :- valeu(K, V).

value(a, 1).
