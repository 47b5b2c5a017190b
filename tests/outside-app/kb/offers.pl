% Consulted by shop.pl.
weekly_offer(bread, 10).
weekly_offer(cheese, 25).
