//! Knowledge bases at real sizes: many distinct atoms longer than the engine keeps
//! inside a term (6 bytes), at load and at run time. Interning them used to copy the
//! engine's whole atom table per new atom (O(N²)): 100,000 such ids did not load
//! within the default deadline. `vendor/scryer-prolog/CHARON.md` has the fix.

use std::fmt::Write as _;
use std::time::Duration;

use charon::{EngineConfig, KnowledgeBase, Limits};
use serde_json::json;

use crate::util::{TempDir, config};

const BOOKS: usize = 100_000;

/// `book(b0000001, "Title 1", …)`, the ids of the report that found the O(N²) load.
fn library(dir: &TempDir) -> std::path::PathBuf {
    let mut text = String::from(
        "\
:- use_module(library(lists)).
:- dynamic(book/4).

%! get_book(+Id:atom, -Title:string) is semidet.
%
%  The title of a book.
get_book(Id, Title) :-
    book(Id, Title, _, _).

%! add_book(+Id:atom, +Title:string) is det.
%
%  Adds a book.
add_book(Id, Title) :-
    assertz(book(Id, Title, \"\", 2026)).

%! distinct_atoms(+N:int, -Count:int, -Last:atom) is det.
%
%  Makes N new atoms of at least 12 bytes and counts the distinct ones.
distinct_atoms(N, Count, Last) :-
    findall(A, (between(1, N, I), number_codes(I, Cs), atom_codes(D, Cs), atom_concat(fresh_atom_, D, A)), As),
    sort(As, Sorted),
    length(Sorted, Count),
    nth1(N, As, Last).

",
    );
    for k in 1..=BOOKS {
        writeln!(
            text,
            "book(b{k:07}, \"Title {k}\", \"Author {k}\", {}).",
            1900 + k % 120
        )
        .expect("string");
    }
    let path = dir.0.join("library.pl");
    std::fs::write(&path, text).expect("write the knowledge base");
    path
}

#[test]
fn a_hundred_thousand_long_atom_ids_load_within_the_default_deadline_and_stay_distinct() {
    let dir = TempDir::new("scale-atoms");
    let defaults = EngineConfig::default();
    let kb = KnowledgeBase::load_with(
        library(&dir),
        EngineConfig {
            workers: 2,
            load_timeout: defaults.load_timeout,
            limits: Limits {
                inferences: 0,
                time: Duration::from_secs(30),
                ..config().limits
            },
            ..config()
        },
    )
    .expect("100,000 books with 8-character ids load within the default deadline");

    for k in [1, 2, 49_999, 50_000, 99_999, BOOKS] {
        assert_eq!(
            kb.call("get_book", &json!({ "Id": format!("b{k:07}") }))
                .expect("get_book"),
            json!(format!("Title {k}")),
            "book b{k:07}"
        );
    }
    // Atoms that share a prefix with the loaded ones, or are new, find nothing.
    for id in ["b0000000", "b00000001", "b000001", "b0100001"] {
        assert_eq!(
            kb.call("get_book", &json!({ "Id": id })).expect("get_book"),
            json!(null),
            "{id}"
        );
    }

    // Run time: a call interning as many new atoms again, every one distinct.
    let made = kb
        .call("distinct_atoms", &json!({ "N": BOOKS }))
        .expect("distinct_atoms");
    assert_eq!(made["Count"], json!(BOOKS), "{made}");
    assert_eq!(made["Last"], json!(format!("fresh_atom_{BOOKS}")), "{made}");

    // A write with a new long id is seen by every worker, beside the loaded ones.
    kb.call("add_book", &json!({ "Id": "b0100001", "Title": "Added" }))
        .expect("add_book");
    for _ in 0..4 {
        assert_eq!(
            kb.call("get_book", &json!({ "Id": "b0100001" }))
                .expect("get_book"),
            json!("Added")
        );
        assert_eq!(
            kb.call("get_book", &json!({ "Id": "b0099999" }))
                .expect("get_book"),
            json!("Title 99999")
        );
    }
}
