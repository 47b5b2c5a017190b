:- initialization(main).
main :-
    read(Term),
    write(Term).
