% Answers with several outputs, named so that their declared order is not the
% alphabetical one: the answer's keys must come in the order of the mode line
% (tests/e2e/key_order.rs).

%! zeta_first(-Zeta:int, -Alpha:atom, -Mid:string) is det.
%  One solution of three outputs, declared Zeta, Alpha, Mid.
zeta_first(26, a, "m \"quoted\"").

%! items(-Name:atom, -Count:int, -Colour:atom) is nondet.
%  Several solutions: each object keeps Name, Count, Colour.
items(apple, 3, red).
items(kiwi, 5, green).
items(plum, 7, blue).

%! maybe(+Key:atom, -Value:int, -Big:int) is semidet.
%  A semidet answer; Big is past 64 bits, so it is written by Charon's own number
%  writer next to the ordered key.
maybe(k, 1, 123456789012345678901234567890).
