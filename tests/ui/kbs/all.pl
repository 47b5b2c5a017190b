% Every declared type and every determinism, for the pass case.

:- use_module(library(lists)).
:- use_module(library(between)).

%! types(+A:atom, +S:string, +T:text, +I:int, +J:integer, +F:float, +N:number, +B:bool, +C:boolean, +L:list(int), +LL:list(list(atom)), +P:list, +Y:any, -OA:atom, -OS:string, -OI:int, -OF:float, -ON:number, -OB:bool, -OL:list(string), -OY:any) is det.
%
%  Echoes one value of each type.
%
%  @arg A An atom.
types(A, S, _, I, _, F, N, B, _, _, _, _, Y, A, S, I, F, N, B, [S], Y).

%! det0(+X:int) is det.
det0(_).
%! det1(+X:int, -Y:int) is det.
det1(X, X).
%! semi0(+X:int) is semidet.
semi0(X) :- X > 0.
%! semi1(+X:int, -Y:atom) is semidet.
semi1(X, yes) :- X > 0.
%! semi2(+X:int, -Y:int, -Z:int) is semidet.
semi2(X, X, X) :- X > 0.
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
%! type(+Match:atom, -Self:atom) is det.
%
%  Names that are Rust keywords become raw identifiers.
type(X, X).
%! count_names(+Names:list(atom), +Texts:list(string), -N:int) is det.
%
%  Lists of text take any slice of text: `&["a", "b"]` as well as `&Vec<String>`.
count_names(Ns, Ts, N) :- length(Ns, A), length(Ts, B), N is A + B.
