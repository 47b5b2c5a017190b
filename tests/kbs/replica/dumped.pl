% A write Charon cannot record as changes (it changes a flag): replicas of this
% knowledge base could not agree, so replicated mode refuses it.
:- dynamic(n/1).

%! set_mode(+M:atom) is det.
set_mode(M) :- set_prolog_flag(double_quotes, M), assertz(n(M)).
