% Large values under keys: enough writes to outgrow the record of changes that
% workers catch up from, so that it is folded into new bases while calls go on.
:- dynamic(entry/2).

%! put(+Key:atom, +Value:string) is det.
put(Key, Value) :- retractall(entry(Key, _)), assertz(entry(Key, Value)).

%! get(+Key:atom, -Value:string) is semidet.
get(Key, Value) :- entry(Key, Value).

%! keys(-Keys:list(atom)) is det.
keys(Keys) :- findall(Key, entry(Key, _), Keys0), sort(Keys0, Keys).
