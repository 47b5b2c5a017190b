/*  lm/2 as one file defines it, for load_lm/1 in kv.pl: first arguments of every
    kind, a variable first among them, so that the loaded code indexes this
    predicate on its second argument, and the clauses asserted after the load (on
    both ends) meet an index of another argument.
*/
:- dynamic(lm/2).

lm(_, 9).
lm(f(x), 1).
lm(a, 0).
lm([h], 4).
lm(b, 5).
