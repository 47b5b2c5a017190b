% A clause whose closing bracket is missing.

%! colour(+Thing:atom, -Colour:atom) is semidet.
colour(sky, blue).
colour(grass, green.
colour(snow, white).
