#!/usr/bin/env python3
"""Write a large knowledge base for scripts/bench-load.sh.

    python3 bench/gen_load.py KIND N OUT.pl

KIND:
  static   N facts fact(fK, V), K = 0 .. N-1 (ids of at most 6 characters up to
           N = 100,000), and get_fact(+Id:atom, -Value:int)
  dynamic  `:- dynamic(book/4).` and N facts book(bK, "Title K", "Author K", Year),
           K = 0 .. N-1, and get_book(+Id:atom, -Title:string)
  int      N facts fact(K, V) with an integer first argument, K = 1 .. N, and
           get_fact(+Id:int, -Value:int)
  dynint   `:- dynamic(score/2).` and N facts score(K, V) with integer keys, and
           get_score(+Id:int, -Value:int)
  long     as dynamic, with the ids of the report that asked for these benchmarks:
           book(b0000001, ...), 8 characters, every one a new atom
  books    the facts of long as static facts (no `:- dynamic` line): what the
           same data costs where no clause can be retracted

Ids stay short (but in `long`, and in `static` past N = 100,000) so that the tables
compare with the runs made before the engine's atom table was fixed: scryer-prolog
0.10.0 copied its atom table for every new atom longer than 6 bytes, which made loading
many distinct long atoms quadratic (vendor/scryer-prolog/CHARON.md; BENCHMARKS.md,
"Loading large knowledge bases").
Output is the same on every run.
"""
import sys

HEADERS = {
    "static": """\
/*  {n} static facts: a knowledge base of scripts/bench-load.sh (bench/gen_load.py). */

%! get_fact(+Id:atom, -Value:int) is semidet.
%
%  The value stored under Id.
%
%  @arg Id    A fact id, f0 to f{last}.
%  @arg Value Its value.
get_fact(Id, Value) :-
    fact(Id, Value).

""",
    "dynamic": """\
/*  {n} dynamic facts: a knowledge base of scripts/bench-load.sh (bench/gen_load.py). */

:- dynamic(book/4).

%! get_book(+Id:atom, -Title:string) is semidet.
%
%  The title of a book.
%
%  @arg Id    A book id, b0 to b{last}.
%  @arg Title Its title.
get_book(Id, Title) :-
    book(Id, Title, _, _).

""",
    "int": """\
/*  {n} static facts with integer keys: a knowledge base of scripts/bench-load.sh
    (bench/gen_load.py). */

%! get_fact(+Id:int, -Value:int) is semidet.
%
%  The value stored under Id.
%
%  @arg Id    A fact id, 1 to {last}.
%  @arg Value Its value.
get_fact(Id, Value) :-
    fact(Id, Value).

""",
    "dynint": """\
/*  {n} dynamic facts with integer keys: a knowledge base of scripts/bench-load.sh
    (bench/gen_load.py). */

:- dynamic(score/2).

%! get_score(+Id:int, -Value:int) is semidet.
%
%  The score stored under Id.
%
%  @arg Id    A key, 1 to {last}.
%  @arg Value Its score.
get_score(Id, Value) :-
    score(Id, Value).

""",
}
HEADERS["long"] = HEADERS["dynamic"].replace("b0 to b{last}", "b0000001 to b{last:07d}")
HEADERS["books"] = (
    HEADERS["long"].replace(" dynamic facts:", " static facts:").replace(":- dynamic(book/4).\n\n", "")
)


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in HEADERS:
        sys.exit("usage: gen_load.py static|dynamic|int|dynint|long|books N OUT.pl")
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    last = n if kind in ("int", "dynint", "long", "books") else n - 1
    with open(out, "w") as f:
        f.write(HEADERS[kind].format(n=n, last=last))
        if kind == "static":
            f.writelines(f"fact(f{k}, {k * 7919 % 1000003}).\n" for k in range(n))
        elif kind == "dynamic":
            f.writelines(
                f'book(b{k}, "Title {k}", "Author {k}", {1900 + k % 120}).\n'
                for k in range(n)
            )
        elif kind in ("long", "books"):
            f.writelines(
                f'book(b{k:07d}, "Title {k}", "Author {k}", {1900 + k % 120}).\n'
                for k in range(1, n + 1)
            )
        elif kind == "dynint":
            f.writelines(f"score({k}, {k * 7919 % 1000003}).\n" for k in range(1, n + 1))
        else:
            f.writelines(f"fact({k}, {k * 7919 % 1000003}).\n" for k in range(1, n + 1))


if __name__ == "__main__":
    main()
