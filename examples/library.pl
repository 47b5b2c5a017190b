/*  A small library catalogue with a dynamic database.

    Books are dynamic facts: the put_ and delete_ operations change them, and every
    later call sees the change (with --persist they are written back to this file).
*/

:- use_module(library(lists)).

:- dynamic(book/4).

% book(Id, Title, Author, Year).
book(sicp, "Structure and Interpretation of Computer Programs", "Abelson and Sussman", 1985).
book(taocp1, "The Art of Computer Programming, Volume 1", "Donald Knuth", 1968).
book(aop, "The Art of Prolog", "Sterling and Shapiro", 1986).
book(craft, "The Craft of Prolog", "Richard O'Keefe", 1990).

%! get_book(+Id:atom, -Title:string, -Author:string, -Year:int) is semidet.
%
%  Looks a book up by its catalogue id; null when there is none.
%
%  @arg Id     Catalogue id.
%  @arg Title  Title.
%  @arg Author Author(s).
%  @arg Year   Year of publication.
get_book(Id, Title, Author, Year) :-
    book(Id, Title, Author, Year).

%! get_books(-Ids:list(atom)) is det.
%
%  Every catalogue id, sorted.
%
%  @arg Ids The ids.
get_books(Ids) :-
    findall(Id, book(Id, _, _, _), Ids0),
    sort(Ids0, Ids).

%! get_books_before(+Year:int, -Id:atom, -Title:string) is nondet.
%
%  Books published before Year, one solution per book.
%
%  @arg Year  Exclusive upper bound on the year of publication.
%  @arg Id    Catalogue id.
%  @arg Title Title.
get_books_before(Year, Id, Title) :-
    book(Id, Title, _, Y),
    Y < Year.

%! put_book(+Id:atom, +Title:string, +Author:string, +Year:int) is det.
%
%  Adds a book, or replaces the book with the same id.
%
%  @arg Id     Catalogue id.
%  @arg Title  Title.
%  @arg Author Author(s).
%  @arg Year   Year of publication.
put_book(Id, Title, Author, Year) :-
    (   book(Id, _, _, _)       % an indexed lookup; retractall/1 walks every book's index key
    ->  retractall(book(Id, _, _, _))
    ;   true
    ),
    assertz(book(Id, Title, Author, Year)).

%! delete_book(+Id:atom) is semidet.
%
%  Removes a book; false when there is no book with that id.
%
%  @arg Id Catalogue id.
delete_book(Id) :-
    retract(book(Id, _, _, _)),
    !.

%! count_books(-Count:int) is det.
%
%  How many books the catalogue holds.
%
%  @arg Count The number of books.
count_books(Count) :-
    findall(x, book(_, _, _, _), Xs),
    length(Xs, Count).
