//! The compile-time syntax check (`charon::pldoc::syntax_errors`, which
//! `knowledge_base!` runs on every file it compiles in) against the engine's own
//! reader: texts made by breaking real knowledge bases one character at a time. A
//! text the check refuses must be one the engine refuses too (a build refused for a
//! file the engine reads would be the worst mistake the check can make); and the
//! check must catch most of what the engine refuses.

use charon::{EngineConfig, KnowledgeBase, LoadError};

use crate::util::example;

/// A knowledge base with the syntax real files use: operators of its own, quoted
/// atoms and strings, lists with tails, curly terms, negative numbers, a DCG.
const OWN: &str = r#":- op(700, xfx, ===>).
:- op(200, xfy, of).
rule(a ===> b).
rule((x, y) ===> z).
part(wheel of car, 4).
'odd name'("text with \"quotes\" and 0'c", -1, 0x1F, 1.5e3).
pairs([a-1, b-2|T], T).
curly({a, b}).
neg(X) :- X is - 1 + (-2) * 3.
greeting --> [hello], name.
name --> [world].
ops(X) :- X = (a :- b ; c -> d), \+ X == [].
"#;

/// The next number of a fixed-seed linear congruential generator.
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

/// `text` with one character deleted, or one of Prolog's structural characters
/// inserted, at a place the seed picks.
fn mutate(text: &str, seed: &mut u64) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = next(seed) as usize % chars.len();
    let mut out = chars.clone();
    if next(seed).is_multiple_of(2) {
        out.remove(at);
    } else {
        let inserted = ['(', ')', ',', '.', '[', ']', '|', '\'', '"', ' ', 'x', ':'];
        out.insert(at, inserted[next(seed) as usize % inserted.len()]);
    }
    out.into_iter().collect()
}

fn config() -> EngineConfig {
    EngineConfig {
        workers: 1,
        ..crate::util::config()
    }
}

#[test]
fn a_text_the_check_refuses_the_engine_refuses_too() {
    let meds = std::fs::read_to_string(example("meds.pl")).expect("meds.pl");
    let mut seed = 7;
    let (mut refused, mut caught, mut cases) = (0, 0, 0);
    for base in [OWN, meds.as_str()] {
        assert!(
            charon::pldoc::syntax_errors("base.pl", base).is_empty(),
            "the unbroken text reads"
        );
        for _ in 0..30 {
            let text = mutate(base, &mut seed);
            let ours = charon::pldoc::syntax_errors("kb.pl", &text);
            let engine = KnowledgeBase::from_source_with("kb.pl", &text, config());
            cases += 1;
            let engine_refused =
                matches!(&engine, Err(LoadError::Consult(m)) if m.contains("syntax error"));
            if let Some(e) = ours.first() {
                assert!(
                    engine.is_err(),
                    "the check refuses a text the engine reads ({e}):\n{text}"
                );
            }
            if engine_refused {
                refused += 1;
                caught += usize::from(!ours.is_empty());
            }
        }
    }
    // What the check misses the engine reports at load; most is caught at build.
    assert!(refused >= 10, "only {refused} of {cases} texts were broken");
    assert!(
        caught * 10 >= refused * 8,
        "the check caught {caught} of the {refused} texts the engine refuses"
    );
}

#[test]
fn the_check_names_the_line_and_column_of_common_mistakes() {
    for (text, at) in [
        // A missing `.` at the end of a clause: the next clause is where it shows.
        ("p(a)\np(b).\n", "kb.pl:2:1"),
        // A missing comma between arguments.
        ("q(a b).\n", "kb.pl:1:5"),
        // An unclosed bracket.
        ("r([a, b).\n", "kb.pl:1:8"),
        // Quoted text the file ends inside.
        ("s('abc).\n", "kb.pl:1:3"),
        // No final `.`.
        ("t(a).\nt(b)", "kb.pl:2:4"),
        // An operator used before the file declares it.
        ("u(a ===> b).\n:- op(700, xfx, ===>).\n", "kb.pl:1:5"),
    ] {
        let errors = charon::pldoc::syntax_errors("kb.pl", text);
        let first = errors
            .first()
            .unwrap_or_else(|| panic!("no error in {text:?}"));
        assert_eq!(first.location.to_string(), at, "{text:?}: {first}");
        assert!(
            KnowledgeBase::from_source_with("kb.pl", text, config()).is_err(),
            "the engine reads {text:?}"
        );
    }
    // Operators the engine's libraries export are in force after the load.
    let text = ":- use_module(library(clpz)).\nv(X) :- X #= 1 + 2.\n";
    assert!(charon::pldoc::syntax_errors("kb.pl", text).is_empty());
    KnowledgeBase::from_source_with("kb.pl", text, config()).expect("reads");
}
