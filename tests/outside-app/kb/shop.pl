/*  A small shop: prices, baskets, and one number too big for 64 bits. */

item(apple, 0.5).
item(bread, 2.25).
item(cheese, 7.0).

%! price(+Item:atom, -Price:float) is semidet.
%
%  The price of one item.
price(Item, Price) :- item(Item, Price).

%! basket_total(+Items:list(atom), -Total:float) is det.
%
%  What a basket costs; unknown items cost nothing.
basket_total([], 0.0).
basket_total([Item|Items], Total) :-
    basket_total(Items, Rest),
    (   item(Item, P) -> Total is Rest + P ; Total = Rest ).

%! factorial(+N:int, -F:int) is det.
%
%  N!, exact at any size.
factorial(0, 1) :- !.
factorial(N, F) :- N > 0, M is N - 1, factorial(M, G), F is N * G.
