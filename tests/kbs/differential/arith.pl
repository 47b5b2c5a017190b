/*  Arithmetic, compared with SWI-Prolog by tests/e2e/differential.rs: the test
    sends an expression as text; both systems read it with read_from_chars/2
    (library(charsio)) and evaluate it at run time.

    The answer is an atom: `int DIGITS`, `float TEXT` (as number_codes/2 writes
    it; the test compares the bits, so that -0.0 differs from 0.0), `bool true`
    or `bool false` for a comparison, `error CLASS` for error(Formal, _) (CLASS is
    Formal's name, and its first argument when that is an atom; for
    type_error(evaluable, F/N), also F/N), `throw` for any
    other ball, `other` for a value of another kind.
*/

:- use_module(library(lists)).
:- use_module(library(charsio)).

%! eval(+E:atom, -R:atom) is det.
%
%  The value of the expression E (text, with or without a final full stop).
eval(Text, R) :-
    read_expression(Text, E),
    catch(( V is E, describe(V, R) ), B, thrown(B, R)).

%! test(+E:atom, -R:atom) is det.
%
%  Whether the comparison E (text: `A =:= B`, `A < B`, ...) holds.
test(Text, R) :-
    read_expression(Text, G),
    catch(( call(G) -> R = 'bool true' ; R = 'bool false' ), B, thrown(B, R)).

read_expression(Text, E) :-
    atom_chars(Text, Cs0),
    (   append(_, ['.'], Cs0) -> Cs = Cs0 ; append(Cs0, [' ', '.'], Cs) ),
    read_from_chars(Cs, E).

describe(V, R) :-
    (   integer(V) -> Kind = 'int '
    ;   float(V) -> Kind = 'float '
    ;   Kind = other
    ),
    (   Kind == other
    ->  R = other
    ;   number_codes(V, Cs),
        atom_codes(A, Cs),
        atom_concat(Kind, A, R)
    ).

atomic_concat_list([], '').
atomic_concat_list([A|As], C) :-
    atomic_concat_list(As, C0),
    atom_concat(A, C0, C).

thrown(B, R) :-
    (   nonvar(B), B = error(F, _), nonvar(F)
    ->  functor(F, N, Ar),
        (   F = type_error(evaluable, Name/Arity), atom(Name), integer(Arity)
        ->  number_codes(Arity, Ds), atom_codes(A, Ds),
            atomic_concat_list([N, ':evaluable:', Name, '/', A], C)
        ;   Ar >= 1, arg(1, F, X), atom(X)
        ->  atomic_concat_list([N, ':', X], C)
        ;   C = N
        ),
        atom_concat('error ', C, R)
    ;   R = throw
    ).
