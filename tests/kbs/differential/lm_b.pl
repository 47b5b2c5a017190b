/*  lm/2 as a second file defines it, for load_lm/1 in kv.pl: a rule whose first
    argument is a variable, then a structure and an integer.
*/
:- dynamic(lm/2).

lm(X, 9) :- X = f(w).
lm(f(y), 2).
lm(1, 3).
