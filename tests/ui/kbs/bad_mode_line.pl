% A mode line that cannot be read.

%! lookup(+Key:atom, -Value:atom is det.
lookup(a, b).
