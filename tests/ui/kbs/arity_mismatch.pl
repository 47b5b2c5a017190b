% The mode line and the clauses disagree on the arity.

%! price(+Item:atom, -Price:int) is det.
price(apple, 3, eur).
