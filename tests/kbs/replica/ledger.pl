% A knowledge base replicas share: a counter (read-modify-write: a lost update
% shows as a wrong count), values under keys, and every value ever put, in order
% (the order of the log: replicas that applied it differently differ here).
:- dynamic(counter/1).
:- dynamic(entry/2).
:- dynamic(seen/2).
counter(0).

%! bump(-N:int) is det.
bump(N) :- retract(counter(N0)), N is N0 + 1, assertz(counter(N)).

%! count(-N:int) is det.
count(N) :- counter(N).

%! put(+Key:atom, +Value:string) is det.
put(K, V) :- retractall(entry(K, _)), assertz(entry(K, V)), assertz(seen(K, V)).

%! get(+Key:atom, -Value:string) is semidet.
get(K, V) :- entry(K, V).

%! drop(+Key:atom) is semidet.
drop(K) :- retract(entry(K, _)).

%! state(-Facts:list(string)) is det.
state(Facts) :-
    findall(S,
            ( ( counter(N), G = counter(N)
              ; entry(K, V), G = entry(K, V)
              ; seen(K, V), G = seen(K, V)
              ),
              write_term_to_chars(G, [quoted(true), double_quotes(true)], Cs),
              atom_chars(S, Cs) ),
            Facts).
