/*  The SWI-Prolog peer of the HTTP benchmark (scripts/bench-http.sh).

    Serves examples/rbac.pl (or any knowledge base with the same two predicates)
    with SWI-Prolog's own HTTP stack, under the routes and JSON shapes Charon
    serves for that file:

      GET  /get_user_has_permission?User=U&Perm=P   -> true | false
           (get_user_has_permission/2 is semidet with no outputs: once/1)
      POST /users_with_permission  {"Perm":"deploy"} -> ["user_0078", ...]
           (users_with_permission/2 is det with one output: its value)
      GET  /health                                   -> {"status":"ok"}
      POST /grant {"User":U,"Perm":P}, POST /add_note {"Text":T} -> true
           (the writes of bench/peers/rbac_writes.pl, for scripts/bench-mixed.sh)

    library(http/thread_httpd) with a fixed pool of worker threads, keep-alive
    (HTTP/1.1, the library's default), compact JSON (no spaces: the bytes
    Charon sends), bound to 127.0.0.1 only. The knowledge base is consulted into its own module `kb`,
    so that its predicates cannot clash with this file's.

    Usage:
      swipl bench/peers/swi_server.pl --port=8081 --workers=4 --kb=examples/rbac.pl

    Stops on SIGTERM or SIGINT.
*/

:- use_module(library(main)).
:- use_module(library(option)).
:- use_module(library(http/thread_httpd)).
:- use_module(library(http/http_dispatch)).
:- use_module(library(http/json)).
:- use_module(library(http/http_json)).
:- use_module(library(http/http_parameters)).

:- initialization(main, main).

:- http_handler(root(get_user_has_permission), point, [methods([get, head])]).
:- http_handler(root(users_with_permission), list, [methods([post])]).
:- http_handler(root(health), health, [methods([get, head])]).
% The writes of the mixed workload (bench/peers/rbac_writes.pl), when the
% knowledge base defines them: JSON arguments as Charon takes them, `true` back.
:- http_handler(root(grant), grant, [methods([post])]).
:- http_handler(root(add_note), add_note, [methods([post])]).
% The write idioms of scripts/bench-write-idioms.sh (bench/write_idioms.py writes
% a knowledge base of book/4 facts that defines them).
:- http_handler(root(add_book), book_write(add_book), [methods([post])]).
:- http_handler(root(upsert_book), book_write(upsert_book), [methods([post])]).
:- http_handler(root(move_book), book_write(move_book), [methods([post])]).
:- http_handler(root(find_book), book_write(find_book), [methods([post])]).

main(Argv) :-
    argv_options(Argv, _Positional, Options),
    (   option(kb(KB), Options)
    ->  true
    ;   format(user_error, "usage: swipl swi_server.pl --kb=FILE [--port=8081] [--workers=4]~n", []),
        halt(2)
    ),
    option(port(Port), Options, 8081),
    option(workers(Workers), Options, 4),
    kb:consult(KB),
    http_server(http_dispatch, [port('127.0.0.1':Port), workers(Workers)]),
    format(user_error, "swi_server: ~w on http://127.0.0.1:~w/ with ~w workers~n",
           [KB, Port, Workers]),
    thread_get_message(stop).      % serve until killed

%  GET /get_user_has_permission?User=U&Perm=P: semidet, no outputs -> true/false.
point(Request) :-
    http_parameters(Request, ['User'(User, [atom]), 'Perm'(Perm, [atom])]),
    (   once(kb:get_user_has_permission(User, Perm))
    ->  Answer = true
    ;   Answer = false
    ),
    reply_compact(Answer).

%  POST /users_with_permission {"Perm": P}: det, one output -> its value, a JSON
%  array of strings.
list(Request) :-
    http_read_json_dict(Request, Args),
    (   get_dict('Perm', Args, PermText), string(PermText)
    ->  atom_string(Perm, PermText),
        once(kb:users_with_permission(Perm, Users)),
        reply_compact(Users)
    ;   reply_json_dict(_{title: "Perm (a string) is required"},
                        [width(0), status(400)])
    ).

%  POST /grant {"User": U, "Perm": P} and POST /add_note {"Text": T}: det, no
%  outputs -> true.
grant(Request) :-
    http_read_json_dict(Request, Args),
    atom_string(User, Args.'User'),
    atom_string(Perm, Args.'Perm'),
    once(kb:grant(User, Perm)),
    reply_compact(true).

add_note(Request) :-
    http_read_json_dict(Request, Args),
    atom_string(Text, Args.'Text'),
    once(kb:add_note(Text)),
    reply_compact(true).

%  POST /add_book and /upsert_book {"Id", "Title", "Author", "Year"}, POST
%  /move_book {"Id"} -> true (false when move_book finds no book), POST /find_book
%  {"Id"} -> the title, or null: the shapes Charon serves for the same operations.
book_write(Op, Request) :-
    http_read_json_dict(Request, Args),
    atom_string(Id, Args.'Id'),
    (   Op == move_book
    ->  ( once(kb:move_book(Id)) -> reply_compact(true) ; reply_compact(false) )
    ;   Op == find_book
    ->  (   once(kb:find_book(Id, Title))
        ->  format("Content-Type: application/json~n~n"),
            json_write(current_output, Title, [width(0)])
        ;   format("Content-Type: application/json~n~nnull")
        )
    ;   Goal =.. [Op, Id, Args.'Title', Args.'Author', Args.'Year'],
        once(kb:Goal),
        reply_compact(true)
    ).

%  reply_compact(+Answer): true, false, or a list of atoms, as JSON without any
%  white space. (json_write/3 with width(0) still writes ", " between array
%  elements; here the array is written element by element instead. json_write/3
%  writes an atom as a JSON string.)
reply_compact(Answer) :-
    format("Content-Type: application/json~n~n"),
    (   is_list(Answer)
    ->  put_char('['),
        write_elements(Answer),
        put_char(']')
    ;   must_be(boolean, Answer),
        write(Answer)
    ).

write_elements([]).
write_elements([H|T]) :-
    json_write(current_output, H, [width(0)]),
    (   T == []
    ->  true
    ;   put_char(','),
        write_elements(T)
    ).

health(_Request) :-
    format("Content-Type: application/json~n~n{\"status\":\"ok\"}").
