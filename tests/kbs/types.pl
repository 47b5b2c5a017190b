% Fixture: one echo predicate per declared type, the determinism table, limits.

:- use_module(library(lists)).
:- use_module(library(between)).
:- use_module(library(time)).

%! echo_atom(+In:atom, -Out:atom) is det.
echo_atom(X, X).
%! echo_string(+In:string, -Out:string) is det.
echo_string(X, X).
%! echo_text(+In:text, -Out:text) is det.
echo_text(X, X).
%! echo_int(+In:int, -Out:int) is det.
echo_int(X, X).
%! echo_integer(+In:integer, -Out:integer) is det.
echo_integer(X, X).
%! echo_float(+In:float, -Out:float) is det.
echo_float(X, X).
%! echo_number(+In:number, -Out:number) is det.
echo_number(X, X).
%! echo_bool(+In:bool, -Out:bool) is det.
echo_bool(X, X).
%! echo_boolean(+In:boolean, -Out:boolean) is det.
echo_boolean(X, X).
%! echo_list_int(+In:list(int), -Out:list(int)) is det.
echo_list_int(X, X).
%! echo_list_atom(+In:list(atom), -Out:list(atom)) is det.
echo_list_atom(X, X).
%! echo_list_string(+In:list(string), -Out:list(string)) is det.
echo_list_string(X, X).
%! echo_nested(+In:list(list(list(int))), -Out:list(list(list(int)))) is det.
echo_nested(X, X).
%! echo_list(+In:list, -Out:list) is det.
echo_list(X, X).
%! echo_any(+In:any, -Out:any) is det.
echo_any(X, X).

%! describe(+X:any, -Kind:atom) is det.
%  What Prolog received for an `any` value.
describe(X, integer) :- integer(X), !.
describe(X, float) :- float(X), !.
describe([], nil) :- !.
describe(X, list) :- proper_list(X), !.
describe(X, atom) :- atom(X), !.
describe(_, other).

%! kind_of_atom(+X:atom, -IsAtom:bool) is det.
kind_of_atom(X, B) :- ( atom(X) -> B = true ; B = false ).
%! kind_of_string(+X:string, -IsList:bool) is det.
kind_of_string(X, B) :- ( proper_list(X) -> B = true ; B = false ).
%! kind_of_float(+X:float, -IsFloat:bool) is det.
kind_of_float(X, B) :- ( float(X) -> B = true ; B = false ).
%! string_length(+S:string, -N:int) is det.
string_length(S, N) :- length(S, N).

%! big(-X:int) is det.
big(X) :- X is 2^100.
%! third(-X:number) is det.
third(X) :- X is 1/3.
%! plain_fact_match(+Drug:atom) is semidet.
plain_fact_match(D) :- drug(D).
drug(aspirin).

% --- the determinism table ---------------------------------------------------

%! det0(+X:int) is det.
det0(_).
%! det1(+X:int, -Y:int) is det.
det1(X, Y) :- Y is X + 1.
%! det2(+X:int, -Y:int, -Z:atom) is det.
det2(X, Y, even) :- Y is X * 2.
%! det_fails(+X:int, -Y:int) is det.
det_fails(_, _) :- fail.
%! det_choice(-X:int) is det.
det_choice(X) :- member(X, [1, 2, 3]).
%! semi0(+X:int) is semidet.
semi0(X) :- X > 0.
%! semi1(+X:int, -Y:int) is semidet.
semi1(X, Y) :- X > 0, Y is X * 2.
%! semi2(+X:int, -Y:int, -Z:int) is semidet.
semi2(X, Y, Z) :- X > 0, Y is X * 2, Z is X * 3.
%! nd0(+N:int) is nondet.
nd0(N) :- between(1, N, _).
%! nd1(+N:int, -I:int) is nondet.
nd1(N, I) :- between(1, N, I).
%! nd2(+N:int, -I:int, -Sq:int) is nondet.
nd2(N, I, Sq) :- between(1, N, I), Sq is I * I.
%! multi1(+N:int, -I:int) is multi.
multi1(N, I) :- between(1, N, I).
%! failure0 is failure.
failure0 :- fail.
%! undeclared1(+N:int, -I:int)
undeclared1(N, I) :- between(1, N, I).
%! one_solution_many(-I:int) is nondet.
one_solution_many(1).

% --- errors and limits -----------------------------------------------------

%! throws(+X:int, -Y:int) is det.
throws(X, _) :- throw(my_error(X)).
%! type_error_builtin(-X:int) is det.
type_error_builtin(X) :- atom_length(1, X).
%! wrong_output(-X:int) is det.
wrong_output(abc).
%! unbound_output(-X:int) is det.
unbound_output(_).
%! spin is det.
spin :- spin.
%! deep(+N:int, -D:int) is det.
deep(N, D) :- N1 is N + 1, deep(N1, D0), D is D0 + 1.
%! nap(+Seconds:int) is det.
nap(S) :- sleep(S).
%! crunch is det.
crunch :- between(1, 1000, _), X is 3^(10^7), X < 0.
%! chatty(+X:atom, -Y:atom) is det.
chatty(X, X) :- write(hello(X)), nl, format("~w and ~a~n", [X, done]).

proper_list(X) :- X == [], !.
proper_list(X) :- nonvar(X), X = [_|T], proper_list(T).
