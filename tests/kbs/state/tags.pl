% A module whose own dynamic predicate changes: its mutators are rewritten and
% recorded like the knowledge base's.
:- module(tags, [add_tag/1, tags/1, clear_tags/0]).
:- dynamic(tag/1).

add_tag(T) :- ( tag(T) -> true ; assertz(tag(T)) ).
tags(Ts) :- findall(T, tag(T), Ts).
clear_tags :- retractall(tag(_)).
