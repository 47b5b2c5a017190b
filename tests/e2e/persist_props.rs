//! `--persist` as a storage engine, by property: seeded random knowledge-base layouts
//! and random write sequences with hostile values, then a clean stop or SIGKILL, a
//! restart, and the whole database read back must equal the acknowledged one; after
//! a clean stop every byte outside the changed clauses must be unchanged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use charon::{EngineConfig, KnowledgeBase};
use serde_json::{Value, json};

use crate::util::{HttpServer, config, http};

/// A small deterministic generator (xorshift64*): every case is reproducible from
/// its seed, which failures print.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Text that has broken persisted files before: control characters the engine
/// writes as `\xHH\` escapes, line and paragraph separators, quotes, backslashes,
/// operators and clause ends as text, newlines, non-BMP characters.
pub(crate) fn hostile_text(rng: &mut Rng) -> String {
    const PIECES: &[&str] = &[
        "\u{1}",
        "\u{7f}",
        "\u{85}",
        "\u{2028}",
        "\u{2029}",
        "\u{feff}",
        "'",
        "''",
        "\"",
        "\\",
        "\\x41\\",
        "\n",
        "\t",
        "\r",
        ". ",
        ".",
        "%",
        "/*",
        "*/",
        ":-",
        "===>",
        "0'",
        "a",
        "Zed",
        "_x",
        "[]",
        "{}",
        ",",
        "|",
        "日本",
        "😀",
        " ",
        "end_of_file",
    ];
    let n = rng.below(5);
    (0..n).map(|_| *rng.pick(PIECES)).collect()
}

fn hostile_int(rng: &mut Rng) -> Value {
    match rng.below(4) {
        0 => json!(rng.below(100)),
        1 => json!(-(rng.below(1 << 40) as i64)),
        2 => json!(i64::MIN),
        _ => {
            // Beyond 64 bits: serde_json keeps the digits (arbitrary_precision).
            let digits = format!(
                "{}{:019}",
                1 + rng.below(9),
                rng.next() % 10_000_000_000_000_000_000
            );
            charon::json::from_str(&digits).expect("a big integer")
        }
    }
}

fn hostile_float(rng: &mut Rng) -> Value {
    let f = match rng.below(5) {
        0 => 0.1,
        1 => 5e-324,
        2 => -1.7976931348623157e308,
        3 => f64::from_bits(rng.next() >> 2),
        _ => (rng.below(1000) as f64) / 7.0,
    };
    json!(if f.is_finite() { f } else { 1.5 })
}

/// A generated knowledge base: its text and the names of its dynamic predicates.
struct Layout {
    text: String,
    predicates: Vec<String>,
    module: bool,
}

/// Predicate names that contain one another, so that a declaration found by a
/// substring would be the wrong one.
const NAMES: &[&str] = &["a", "xa", "ax", "role", "user_role", "role_x", "b"];

fn layout(rng: &mut Rng) -> Layout {
    let mut names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    // Shuffle, then keep three or more.
    for i in (1..names.len()).rev() {
        names.swap(i, rng.below(i as u64 + 1) as usize);
    }
    names.truncate(3 + rng.below(3) as usize);
    let module = rng.chance(30);
    let op_before = rng.chance(40);
    let op_after = !op_before && rng.chance(50);
    let mut t = String::from("% A generated knowledge base.\n");
    if module {
        let exports: Vec<String> = names
            .iter()
            .flat_map(|n| {
                [
                    format!("put_{n}/5"),
                    format!("del_{n}/1"),
                    format!("all_{n}/5"),
                    format!("bad_{n}/1"),
                    format!("boom_{n}/1"),
                ]
            })
            .collect();
        t.push_str(&format!(":- module(gen, [{}]).\n", exports.join(", ")));
    }
    if op_before {
        t.push_str(":- op(700, xfx, ===>).\n\n");
    }
    for (i, n) in names.iter().enumerate() {
        match rng.below(3) {
            0 => t.push_str(&format!(":- dynamic({n}/2).\n")),
            // scryer 0.10 has no prefix operator `dynamic`: a conjunction instead.
            1 => t.push_str(&format!(":- dynamic(({n}/2, {n}_unused/9)).\n")),
            _ => t.push_str(&format!(":- dynamic([{n}/2]).\n")),
        }
        if rng.chance(30) {
            t.push_str(&format!("% the facts of {n}, number {i}\n"));
        }
        if rng.chance(20) {
            t.push('\n');
        }
    }
    if op_after {
        t.push_str("\n:- op(700, xfx, ===>).\n");
    }
    t.push('\n');
    for n in &names {
        if rng.chance(50) {
            for k in 0..rng.below(3) {
                t.push_str(&format!("{n}(k{k}, v(seed, \"text {k}\", {k}, 0.5)).\n"));
                if rng.chance(30) {
                    t.push_str("/* between clauses */\n");
                }
            }
            t.push('\n');
        }
    }
    for n in &names {
        t.push_str(&format!(
            "%! put_{n}(+K:atom, +A:atom, +S:string, +N:int, +F:float) is det.\n\
             put_{n}(K, A, S, N, F) :- retractall({n}(K, _)), assertz({n}(K, v(A, S, N, F))).\n\n\
             %! del_{n}(+K:atom) is det.\n\
             del_{n}(K) :- retractall({n}(K, _)).\n\n\
             %! all_{n}(-K:atom, -A:atom, -S:string, -N:int, -F:float) is nondet.\n\
             all_{n}(K, A, S, N, F) :- {n}(K, v(A, S, N, F)).\n\n\
             %! bad_{n}(+K:atom) is semidet.\n\
             bad_{n}(K) :- assertz({n}(K, v(bad, \"\", 0, 0.0))), fail.\n\n\
             %! boom_{n}(+K:atom) is det.\n\
             boom_{n}(K) :- assertz({n}(K, v(boom, \"\", 0, 0.0))), throw(boom).\n\n"
        ));
    }
    if rng.chance(50) {
        t.push_str("% end of file\n");
    }
    Layout {
        text: t,
        predicates: names,
        module,
    }
}

/// The acknowledged database: per predicate, key → [A, S, N, F].
type Model = BTreeMap<String, BTreeMap<String, Value>>;

fn initial_model(layout: &Layout) -> Model {
    let mut model = Model::new();
    for n in &layout.predicates {
        let mut facts = BTreeMap::new();
        let prefix = format!("{n}(k");
        for line in layout.text.lines().filter(|l| l.starts_with(&prefix)) {
            let k: u64 = line[prefix.len()..prefix.len() + 1].parse().expect("key");
            facts.insert(
                format!("k{k}"),
                json!({"A": "seed", "S": format!("text {k}"), "N": k, "F": 0.5}),
            );
        }
        model.insert(n.clone(), facts);
    }
    model
}

/// One random write: its operation, arguments, and what the model becomes if it is
/// acknowledged (`None`: the write must fail and change nothing).
fn random_write(rng: &mut Rng, layout: &Layout, model: &Model) -> (String, Value, Option<Model>) {
    let n = rng.pick(&layout.predicates).clone();
    let key = if rng.chance(40) {
        format!("k{}", rng.below(3))
    } else {
        hostile_text(rng)
    };
    let mut next = model.clone();
    match rng.below(10) {
        0..=5 => {
            let value = json!({
                "A": hostile_text(rng),
                "S": hostile_text(rng),
                "N": hostile_int(rng),
                "F": hostile_float(rng),
            });
            let mut args = value.clone();
            args["K"] = json!(key);
            next.get_mut(&n).expect("predicate").insert(key, value);
            (format!("put_{n}"), args, Some(next))
        }
        6 | 7 => {
            next.get_mut(&n).expect("predicate").remove(&key);
            (format!("del_{n}"), json!({"K": key}), Some(next))
        }
        8 => (format!("bad_{n}"), json!({"K": key}), None),
        _ => (format!("boom_{n}"), json!({"K": key}), None),
    }
}

/// The whole database as the knowledge base answers it.
fn read_back(kb: &KnowledgeBase, layout: &Layout) -> Model {
    let mut model = Model::new();
    for n in &layout.predicates {
        let rows = kb
            .call_exact(&format!("all_{n}"), &json!({}))
            .expect("read");
        let mut facts = BTreeMap::new();
        for row in rows.as_array().expect("rows") {
            let mut value = row.clone();
            let key = value
                .as_object_mut()
                .and_then(|o| o.remove("K"))
                .and_then(|k| k.as_str().map(str::to_string))
                .expect("key");
            facts.insert(key, value);
        }
        model.insert(n.clone(), facts);
    }
    model
}

fn persisting() -> EngineConfig {
    EngineConfig {
        persist: true,
        ..config()
    }
}

/// The text with every clause of the dynamic predicates (and the line end right
/// after it) taken out: what must never change.
fn outside_clauses(text: &str, layout: &Layout) -> String {
    let mut out = String::new();
    let mut at = 0;
    for span in charon::pldoc::clauses(text) {
        let dynamic = !span.directive
            && span
                .predicate
                .as_ref()
                .is_some_and(|(n, a)| *a == 2 && layout.predicates.contains(n));
        if dynamic {
            out.push_str(&text[at..span.bytes.start]);
            at = span.bytes.end;
            if text[at..].starts_with('\n') {
                at += 1;
            }
        }
    }
    out.push_str(&text[at..]);
    out
}

fn case_dir(seed: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "charon-persist-props-{}-{seed}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

fn check_restart(path: &Path, layout: &Layout, expected: &Model, seed: u64, what: &str) {
    let kb = KnowledgeBase::load_with(path, persisting())
        .unwrap_or_else(|e| panic!("seed {seed}: {what}: the restart failed: {e}"));
    let got = read_back(&kb, layout);
    assert_eq!(&got, expected, "seed {seed}: {what}: the database differs");
    drop(kb);
    // Folded into the file: the file alone, without a journal, holds it too.
    let journal = PathBuf::from(format!("{}.journal", path.display()));
    std::fs::remove_file(&journal).expect("journal");
    let kb = KnowledgeBase::load_with(path, config())
        .unwrap_or_else(|e| panic!("seed {seed}: {what}: the file alone does not load: {e}"));
    assert_eq!(
        &read_back(&kb, layout),
        expected,
        "seed {seed}: {what}: the file alone differs"
    );
}

/// The generator, layout, directory and file of case `seed`.
fn case(seed: u64) -> (Rng, Layout, PathBuf, PathBuf) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let layout = layout(&mut rng);
    let dir = case_dir(seed);
    let path = dir.join("gen.pl");
    std::fs::write(&path, &layout.text).expect("write");
    (rng, layout, dir, path)
}

#[test]
fn random_writes_survive_a_clean_stop_and_every_other_byte_is_kept() {
    for seed in 1..=12u64 {
        let (mut rng, layout, dir, path) = case(seed);
        let mut model = initial_model(&layout);
        {
            let kb = KnowledgeBase::load_with(&path, persisting())
                .unwrap_or_else(|e| panic!("seed {seed}: does not load: {e}\n{}", layout.text));
            assert_eq!(read_back(&kb, &layout), model, "seed {seed}: as loaded");
            for step in 0..25 {
                let (op, args, next) = random_write(&mut rng, &layout, &model);
                let result = kb.call_exact(&op, &args);
                match next {
                    Some(next) => {
                        result.unwrap_or_else(|e| {
                            panic!("seed {seed} step {step}: {op} {args} failed: {e}")
                        });
                        model = next;
                    }
                    None => {
                        if let Ok(v) = result {
                            assert_eq!(v, json!(false), "seed {seed} step {step}: {op}");
                        }
                    }
                }
                if rng.chance(10) {
                    kb.checkpoint().expect("checkpoint");
                }
            }
            assert_eq!(
                read_back(&kb, &layout),
                model,
                "seed {seed}: before the stop"
            );
        }
        let after = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            outside_clauses(&after, &layout),
            outside_clauses(&layout.text, &layout),
            "seed {seed}: bytes outside the changed clauses moved (module: {})\n{after}",
            layout.module
        );
        check_restart(&path, &layout, &model, seed, "clean stop");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn random_writes_survive_sigkill() {
    for seed in 100..=105u64 {
        let (mut rng, layout, dir, path) = case(seed);
        let mut model = initial_model(&layout);
        for round in 0..3 {
            let server = HttpServer::start(&path, &["--persist", "--workers", "2"]);
            for step in 0..12 {
                let (op, args, next) = random_write(&mut rng, &layout, &model);
                let method = if op.starts_with("put_") {
                    "PUT"
                } else {
                    "POST"
                };
                let (status, body) = http(
                    server.port,
                    method,
                    &format!("/{op}"),
                    Some(&crate::util::exact(&args)),
                )
                .unwrap_or_else(|| panic!("seed {seed} round {round} step {step}: no answer"));
                match next {
                    Some(next) => {
                        assert_eq!(
                            status, 200,
                            "seed {seed} round {round} step {step}: {op} {args}: {body}"
                        );
                        model = next;
                    }
                    // A failing write answers false, a throwing one an error.
                    None => assert!(
                        status != 200 || body.trim() == "false",
                        "seed {seed}: {op}: {status} {body}"
                    ),
                }
            }
            // SIGKILL: no checkpoint; the journal must hold every answered write.
            server.kill();
        }
        check_restart(&path, &layout, &model, seed, "SIGKILL");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The edits `reload_case` makes to the file while writes are pending.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Edit {
    /// A fact added to one dynamic predicate (its index in the layout).
    Fact(usize),
    /// A comment and a blank line at the end.
    Comment,
    /// A documented operation at the end.
    Operation,
    /// A directive at the end.
    Directive,
}

/// `text` with the fact `n(edited, …)` placed after the last clause of `n` (or
/// before the operations when `n` has none), so that `n`'s clauses stay together.
fn add_fact(text: &str, n: &str) -> String {
    let prefix = format!("{n}(k");
    let fact = format!("{n}(edited, v(edit, \"by hand\", 9, 0.25)).\n");
    let at = match text.rfind(&format!("\n{prefix}")) {
        Some(i) => i + 1 + text[i + 1..].find('\n').expect("a line end") + 1,
        None => text.find("%! put_").expect("the operations"),
    };
    format!("{}{fact}{}", &text[..at], &text[at..])
}

/// Hot reload with `--persist`, by property: seeded layouts and writes left in the
/// journal, then an edit of the file by someone else, then a reload in place
/// (`hand_over`, `load_after`). The reload takes the writes into the edit exactly
/// when the edit leaves every predicate they changed, and every directive, as it
/// was: then the database is the edit's for what only the edit changed and the
/// acknowledged one for the rest, the edit's bytes outside those clauses are kept,
/// and a restart (and the file alone) gives the same. Otherwise it is refused,
/// naming what both changed, and the old knowledge base keeps serving the
/// acknowledged database with the edit left on disk.
#[test]
fn a_reload_merges_pending_writes_exactly_when_the_edit_leaves_them_alone() {
    let mut merged = 0;
    let mut refused = 0;
    for seed in 200..=215u64 {
        let (mut rng, layout, dir, path) = case(seed);
        let mut model = initial_model(&layout);
        let old = KnowledgeBase::load_with(&path, persisting())
            .unwrap_or_else(|e| panic!("seed {seed}: does not load: {e}"));
        // At least one acknowledged put, so that the journal holds writes.
        let mut written = std::collections::BTreeSet::new();
        let first = rng.pick(&layout.predicates).clone();
        let value = json!({"A": "first", "S": hostile_text(&mut rng), "N": 1, "F": 0.5});
        let mut args = value.clone();
        args["K"] = json!("k9");
        old.call_exact(&format!("put_{first}"), &args)
            .unwrap_or_else(|e| panic!("seed {seed}: put_{first}: {e}"));
        model
            .get_mut(&first)
            .expect("predicate")
            .insert("k9".into(), value);
        written.insert(first);
        for step in 0..rng.below(6) {
            let (op, args, next) = random_write(&mut rng, &layout, &model);
            let result = old.call_exact(&op, &args);
            if let Some(next) = next {
                result.unwrap_or_else(|e| panic!("seed {seed} step {step}: {op}: {e}"));
                model = next;
                let n = op.split_once('_').expect("op_pred").1;
                written.insert(n.to_string());
            }
        }
        // The edit: one or two of these.
        let mut edits = vec![];
        for _ in 0..1 + rng.below(2) {
            edits.push(match rng.below(5) {
                0 | 1 => Edit::Fact(rng.below(layout.predicates.len() as u64) as usize),
                2 => Edit::Comment,
                3 => Edit::Operation,
                _ => Edit::Directive,
            });
        }
        let mut text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text, layout.text,
            "seed {seed}: the file moved before a fold"
        );
        let mut expected = model.clone();
        let mut clash = None;
        for edit in &edits {
            match *edit {
                Edit::Fact(i) => {
                    let n = &layout.predicates[i];
                    if expected[n].contains_key("edited") {
                        continue;
                    }
                    text = add_fact(&text, n);
                    if written.contains(n) {
                        clash = Some(format!("{n}/2"));
                    }
                    expected.get_mut(n).expect("predicate").insert(
                        "edited".into(),
                        json!({"A": "edit", "S": "by hand", "N": 9, "F": 0.25}),
                    );
                }
                Edit::Comment => text.push_str("% edited by hand\n\n"),
                Edit::Operation => {
                    text.push_str("\n%! edited_op(-N:int) is det.\nedited_op(N) :- N = 7.\n")
                }
                Edit::Directive => {
                    text.push_str(":- initialization(true).\n");
                    clash.get_or_insert_with(|| "the directives".into());
                }
            }
        }
        std::fs::write(&path, &text).expect("edit");
        let what = format!("seed {seed}, edits {edits:?}, written {written:?}");
        let handover = old.hand_over().unwrap_or_else(|e| panic!("{what}: {e}"));
        match (
            KnowledgeBase::load_after(&path, persisting(), &handover),
            clash,
        ) {
            (Ok(new), None) => {
                handover.complete();
                merged += 1;
                assert_eq!(read_back(&new, &layout), expected, "{what}: merged");
                drop(new);
                drop(old);
                let after = std::fs::read_to_string(&path).expect("read");
                assert_eq!(
                    outside_clauses(&after, &layout),
                    outside_clauses(&text, &layout),
                    "{what}: the edit's bytes moved\n{after}"
                );
                check_restart(&path, &layout, &expected, seed, "merged");
            }
            (Err(e), Some(clash)) => {
                refused += 1;
                let message = e.to_string();
                assert!(message.contains(&clash), "{what}: {message}");
                drop(handover);
                assert_eq!(read_back(&old, &layout), model, "{what}: still serving");
                assert_eq!(
                    std::fs::read_to_string(&path).expect("read"),
                    text,
                    "{what}: the edit is kept"
                );
                drop(old);
            }
            (Ok(_), Some(clash)) => panic!("{what}: merged though both changed {clash}"),
            (Err(e), None) => panic!("{what}: refused: {e}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        merged >= 3 && refused >= 3,
        "{merged} merged, {refused} refused: the seeds cover too little"
    );
}
