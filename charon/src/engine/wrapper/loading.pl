% ---------------------------------------------------------------------------
% Loading the knowledge base (the worker's Load; consult/1 loads this file).
%
% '$charon_consult'(+Path): consult/1 of Path, done as scryer 0.10's loader does
% it (loader:use_module/3, file_load/3 and load_loop/2: the same load context and
% the same compile_term/2 for each term, so term expansion, the rewriting at the
% end of this file included, declarations, modules, operators, use_module/1,2 of
% other files and initialization/1 behave as under consult/1), except that the
% terms are read in a failure-driven loop. load_loop/2 recurses and keeps every
% term it read on the heap until the end of the file (scryer 0.10 collects no
% garbage), which made a large file cost about three times the memory and half as
% much time again; here a term is gone once compiled (see BENCHMARKS.md, "Loading
% large knowledge bases"). The reads call the system predicates under
% read_term/3 and stream_property/2 directly, without their option checks, a
% third of the time of reading.
%
% Done as load_loop/2 does: layout and comments are skipped before each term (a
% comment at the end of the file is no syntax error), singleton warnings, the
% answer descriptions after a `?-` query are passed over. An error is printed
% and the load fails, as under consult/1; an error outside the loader (the file
% cannot be opened) is printed too.
'$charon_consult'(Path) :-
    retractall('$charon_kb_blamed'),
    retractall('$charon_kb_loaded'(_)),
    retractall('$charon_kb_file'(_)),
    retractall('$charon_kb_op'(_, _, _)),
    retractall('$charon_kb_dq'),
    '$push_load_state_payload'(E0),
    catch('$charon_kb_load'(Path, [], E0), Error, '$charon_kb_error'(Error)),
    '$pop_load_state_payload'(E0).

'$charon_kb_error'(file_load_error) :- !, fail.
'$charon_kb_error'(Error) :-
    catch(loader:write_error(Error), _, true),
    nl,
    fail.

:- dynamic('$charon_kb_blamed'/0).
:- dynamic('$charon_kb_loaded'/1).
:- dynamic('$charon_kb_file'/1).
:- dynamic('$charon_kb_op'/3).
:- dynamic('$charon_kb_dq'/0).

% '$charon_kb_load'(+Path, +Exports, +E0): loads the file Path (absolute, or
% relative to the working directory) as use_module/2 does (loader:use_module/3):
% its own load context, its module's exports (Exports, [] for all) imported into
% the loading context E0.
'$charon_kb_load'(Path0, Exports, E0) :-
    loader:load_context_path(Path0, Path1),
    loader:open_file(Path1, S),
    stream_property(S, file_name(Path)),
    assertz('$charon_kb_loaded'(Path)),
    loader:create_file_load_context(S, Path, E),
    '$add_in_situ_filename_module'(E),
    asserta('$charon_kb_file'(Path)),
    catch('$charon_kb_terms'(S, E, Path),
          Error,
          ( '$charon_kb_blame'(Path, 0, Error), loader:file_load_cleanup(E, Error) )),
    retract('$charon_kb_file'(Path)),
    '$pop_load_context',
    '$use_module'(E0, E, Exports),
    '$pop_load_state_payload'(E).

'$charon_kb_terms'(S, E, Path) :-
    '$charon_kb_each'(S, E, Path),
    close(S),
    '$conclude_load'(E),
    loader:run_initialization_goals.

% '$charon_kb_each'(+S, +E, +Path): compiles every term of S into E.
'$charon_kb_each'(S, E, Path) :-
    (   repeat,
        '$charon_kb_next'(S, T, Line, Singletons),
        (   T == end_of_file -> !
        ;   var(T) -> throw(error(instantiation_error, load/1))
        ;   T = (?- _) -> '$charon_kb_answers'(S, E, Path), fail
        ;   loader:warn_about_singletons(Singletons, Line),
            '$charon_kb_compile'(T, E, Path, Line),
            fail
        )
    ).

% '$charon_kb_next'(+S, -T, -Line, -Singletons): the next term and the line it
% starts on (loader:stream_next_term/4).
'$charon_kb_next'(S, T, Line, Singletons) :-
    (   '$devour_whitespace'(S)
    ->  '$stream_property'(S, position, position_and_lines_read(_, Lines)),
        '$read_term'(S, T, Singletons, _, _),
        Line is Lines + 1
    ;   T = end_of_file
    ).

% compile_term/2 does not fail; if it did, load_loop/2 would fail the load, and
% so does this, naming the term. The directives that load other files, which
% scryer takes only as goals, are done here as a Prolog system does them.
'$charon_kb_compile'(T, E, Path, Line) :-
    (   T = (:- D), nonvar(D) -> '$charon_kb_note'(D) ; true ),
    catch('$charon_kb_compile_'(T, E, Path), Error,
          ( '$charon_kb_blame'(Path, Line, Error), throw(Error) )).

% What the listing for --persist must know of the files' directives: every
% operator they declare ('$charon_kb_op'/3: one may be taken away again below the
% clauses it is used in), and whether they set the double_quotes flag
% ('$charon_kb_dq': "…" then reads differently in different parts of a file).
'$charon_kb_note'(D) :-
    catch('$charon_kb_note_'(D), _, true).
'$charon_kb_note_'((A, B)) :- !, '$charon_kb_note'(A), '$charon_kb_note'(B).
'$charon_kb_note_'(op(P, T, Ns)) :- !,
    (   atom(Ns) -> '$charon_kb_note_op'(P, T, Ns)
    ;   is_list(Ns) -> forall(member(N, Ns), '$charon_kb_note_op'(P, T, N))
    ;   true
    ).
'$charon_kb_note_'(module(_, Exports)) :- !,
    (   is_list(Exports)
    ->  forall(member(op(P, T, N), Exports), '$charon_kb_note_'(op(P, T, N)))
    ;   true
    ).
'$charon_kb_note_'(set_prolog_flag(double_quotes, _)) :- !,
    ( '$charon_kb_dq' -> true ; assertz('$charon_kb_dq') ).
'$charon_kb_note_'(_).
'$charon_kb_note_op'(P, T, N) :-
    (   integer(P), atom(T), atom(N), \+ '$charon_kb_op'(P, T, N)
    ->  assertz('$charon_kb_op'(P, T, N))
    ;   true
    ).

'$charon_kb_compile_'(T, E, Path) :-
    (   T = (:- D), nonvar(D), '$charon_kb_loading'(D, How, Specs0)
    ->  '$charon_kb_specs'(Specs0, Specs),
        '$charon_kb_load_all'(Specs, How, E, Path)
    ;   loader:compile_term(T, E) -> true
    ;   throw(error(charon_not_compiled(T), load/1))
    ).

'$charon_kb_loading'(include(S), include, S).
'$charon_kb_loading'(consult(S), consult, S).
'$charon_kb_loading'(ensure_loaded(S), ensure_loaded, S).
'$charon_kb_loading'([S|Ss], consult, [S|Ss]).
'$charon_kb_loading'(use_module(S), use_module([]), S) :- '$charon_kb_local'(S).
'$charon_kb_loading'(use_module(S, Is), use_module(Is), S) :-
    '$charon_kb_local'(S), Is \== [].

% A file of the knowledge base's own, not library(...): resolved against the file
% that names it (scryer would take the main file's directory).
'$charon_kb_local'(S) :- atom(S), !.
'$charon_kb_local'(_/_).

'$charon_kb_specs'(S, _) :- var(S), !, throw(error(instantiation_error, load/1)).
'$charon_kb_specs'([], []) :- !.
'$charon_kb_specs'([S|Ss], Specs) :- !,
    '$charon_kb_specs'(S, Specs0), '$charon_kb_specs'(Ss, Specs1),
    append(Specs0, Specs1, Specs).
'$charon_kb_specs'(S, [S]).

'$charon_kb_load_all'([], _, _, _).
'$charon_kb_load_all'([S|Ss], How, E, Path) :-
    '$charon_kb_load_one'(How, S, E, Path),
    '$charon_kb_load_all'(Ss, How, E, Path).

'$charon_kb_load_one'(_, S, E, _) :-
    nonvar(S), S = library(_), !,
    loader:use_module(S, [], E).
'$charon_kb_load_one'(How, S, E, From) :-
    (   '$charon_resolve'(S, From, File) -> true
    ;   '$charon_kb_how'(How, Name),
        (   ( atom(S) ; S = _/_ ) -> throw(error(existence_error(source_sink, S), Name/1))
        ;   throw(error(type_error(atom, S), Name/1))
        )
    ),
    '$charon_kb_load_file'(How, File, E).

'$charon_kb_how'(use_module(_), use_module) :- !.
'$charon_kb_how'(How, How).

'$charon_kb_load_file'(include, File, E) :- !,
    (   '$charon_kb_file'(File) -> throw(error(charon_include_cycle(File), include/1))
    ;   true
    ),
    setup_call_cleanup(
        open(File, read, S),
        ( asserta('$charon_kb_file'(File)),
          catch('$charon_kb_each'(S, E, File), Error,
                ( '$charon_kb_blame'(File, 0, Error), throw(Error) )),
          retract('$charon_kb_file'(File)) ),
        close(S)).
'$charon_kb_load_file'(ensure_loaded, File, _) :-
    '$charon_kb_loaded'(File), !.
% A file that is being loaded (it loads, through others, the file that loads it):
% its load goes on where it is; loading it again would never end.
'$charon_kb_load_file'(_, File, _) :-
    '$charon_kb_file'(File), !.
'$charon_kb_load_file'(use_module(Is), File, E) :- !,
    '$charon_kb_load'(File, Is, E).
'$charon_kb_load_file'(_, File, E) :-
    '$charon_kb_load'(File, [], E).

% '$charon_kb_blame'(+Path, +Line, +Error): says on the output which file (and
% line, 0 if unknown) an error happened in; only the innermost says it. The
% engine reads it to name the file in the load error.
'$charon_kb_blame'(_, _, _) :- '$charon_kb_blamed', !.
'$charon_kb_blame'(_, _, file_load_error) :- !.
'$charon_kb_blame'(Path, Line, _) :-
    assertz('$charon_kb_blamed'),
    format("~ncharon-blame: ~d ~a~n", [Line, Path]).

% After a query, up to the next term that is no answer description
% (loader:devour_answer_descriptions/2).
'$charon_kb_answers'(S, E, Path) :-
    '$charon_kb_next'(S, T, Line, Singletons),
    (   T == end_of_file -> true
    ;   var(T) -> throw(error(instantiation_error, load/1))
    ;   T = (?- _) -> '$charon_kb_answers'(S, E, Path)
    ;   loader:answer_description(T) -> '$charon_kb_answers'(S, E, Path)
    ;   Lines is Line - 1,
        loader:warn_about_singletons(Singletons, Lines),
        '$charon_kb_compile'(T, E, Path, Line)
    ).

