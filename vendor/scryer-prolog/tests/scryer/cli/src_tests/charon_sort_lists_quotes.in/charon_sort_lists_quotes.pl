/*  Charon (CHARON.md, items 32 to 34): sort/2 on lists of atoms, the constants a
    clause head is tried against, lists written in a clause that begin with
    one-character atoms, and the atom of two apostrophes written. The answers are
    SWI-Prolog 9's.
*/
:- use_module(library(lists)).
:- use_module(library(charsio)).

% Item 32: sort/2 of atoms only is sorted by the atoms' texts, read once. Short
% atoms are held in the cell, long ones in the table, made at run time too.
t1 :-
    sort([b, a, 'ü', c, zzzzzzzzzzz, aaaaaaaaaaaa, aaaaaaaaaaaa, b, '', 'B', 'Ab'], L1),
    findall(A, ( member(N, [30, 4, 1000, 4, 200]), number_codes(N, Cs), atom_codes(NA, Cs), atom_concat(user_number_, NA, A) ), As),
    sort(As, L2),
    sort([b, 1, a, f(x), b, -3, 0], L3),
    writeq([L1, L2, L3]), nl.

% Item 32: the constants of the next clause head, tried in advance, and a switch
% on a few constants (searched in order) and on many (hashed).
p(a, 1).
p(b, 2).
p(a, 3).
q(1, x).
q(2, y).
q(1, z).
r(k1, 1). r(k2, 2). r(k3, 3). r(k4, 4). r(k5, 5). r(k6, 6). r(k7, 7). r(k8, 8). r(k9, 9). r(k1, 10).
t2 :-
    findall(X, p(a, X), L1), findall(K, p(K, 2), L2), findall(V, q(1, V), L3), findall(K-V, q(K, V), L4),
    findall(V, ( member(K, [k1, k5, k9, k0]), r(K, V) ), L5), findall(K, r(K, 10), L6),
    writeq([L1, L2, L3, L4, L5, L6]), nl.

% Item 33: a list written in a clause that begins with a one-character atom and
% goes on with something else.
menu([a, 1, b]).
menu([x, y]).
menu([c, f(x), d]).
t3 :-
    sort([b, 1, a], L1), sort([b, a], L2), keysort([b-1, a-2, c-0], L3),
    findall(S, ( menu(M), sort(M, S) ), L4),
    findall(N, ( menu(M), length(M, N) ), L5),
    writeq([L1, L2, L3, L4, L5]), nl.

% Item 34: the atom of two apostrophes is written quoted, not as the empty atom.
% Each backslash of the text is shown as #, as the test runner turns a backslash of
% the output into a slash.
t4 :-
    write_term_to_chars(['''''', '', '''', f(''''''), ''''''(a), 'a''''b'], [quoted(true)], Cs0),
    shown(Cs0, Cs1), atom_chars(A1, Cs1), write(A1), nl,
    write_term_to_chars(g('''''', ''), [quoted(true)], Cs), append(Cs, " .", Cs2),
    read_term_from_chars(Cs2, T, []),
    ( T == g('''''', '') -> writeq(same) ; writeq(T) ), nl.

shown([], []).
shown([C0|Cs0], [C|Cs]) :- ( char_code(C0, 92) -> C = '#' ; C = C0 ), shown(Cs0, Cs).

% Item 33: a long list of one-character atoms and other terms in turn, each
% character a string of its own followed by the rest of the list, is read in one
% loop (reading each string in a call of its own overflowed the stack).
alternating(0, []) :- !.
alternating(N, L) :- one_char_first(L, [N|T]), N1 is N - 1, alternating(N1, T).
one_char_first([a|T], T).
t5 :-
    alternating(100000, L), sort(L, S), length(S, N1), length(L, N2),
    write([N1, N2]), nl.
