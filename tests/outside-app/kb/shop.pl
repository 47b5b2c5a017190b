/*  A small shop: prices, baskets, and one number too big for 64 bits.
    Split into files the standard ways: the item list is included, the
    arithmetic is a module, the offers are consulted. */

:- include('data/items.pl').
:- use_module(arith).
:- consult(offers).

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
factorial(N, F) :- product_up_to(N, F).

%! offer(-Item:atom, -Percent:int) is nondet.
%
%  The items on offer this week, and the discount.
offer(Item, Percent) :- weekly_offer(Item, Percent).
