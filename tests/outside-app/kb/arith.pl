:- module(arith, [product_up_to/2]).

% product_up_to(+N, -F): 1 * 2 * ... * N.
product_up_to(0, 1) :- !.
product_up_to(N, F) :- N > 0, M is N - 1, product_up_to(M, G), F is N * G.
