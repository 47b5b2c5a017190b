% Included into shop.pl: the items and their prices.
item(apple, 0.5).
item(bread, 2.25).
item(cheese, 7.0).
