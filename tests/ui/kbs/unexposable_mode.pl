% A mode that cannot be exposed: `?` is neither input nor output.

%! colour(?Thing:atom, -Colour:atom) is nondet.
colour(sky, blue).
