//! The source scanner of `charon-pldoc` against scryer-prolog's own writers.
//!
//! Random clauses (atoms with arbitrary Unicode, control characters, quotes,
//! backslashes, newlines, U+0085, U+2028, operators as atoms; strings; integers and
//! big integers; floats; nested compounds and operator terms; lists) are read by
//! scryer and written back with portray_clause/2, writeq/2, write_canonical/2 or
//! write_term/3 with quoted(true), the way `--persist` writes a knowledge base. The
//! pieces are joined with layout and comments into one file after an `op/3`
//! directive. `charon_pldoc::clauses` must find exactly those clauses, in order, each
//! span being the written piece up to its `.`; scryer then reads the joined file and
//! the scanner must agree with it on the number of clauses and on each one's
//! predicate (name and arity, DCG rules with their two extra arguments).
//!
//! A clause that scryer reads back as another term than the one it wrote is a bug of
//! its writer, not of the scanner: such clauses are listed on stderr (run with
//! `--nocapture`) and do not fail the test. `SCANNER_DUMP=1` prints every file.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use scryer_prolog::{LeafAnswer, Machine, MachineBuilder, Term};

/// The helper predicates, consulted once into the machine.
const PROGRAM: &str = r#"
:- use_module(library(format)).
:- use_module(library(lists)).
:- use_module(library(charsio)).
:- op(700, xfx, ===>).

% emit(+In, +Out, -R): reads w(Writer, Clause) terms from In and writes each clause
% to Out with Writer, each followed by the separator U+0001 (which no writer
% emits: it writes control characters as \xHH\).
emit(In, Out, R) :-
    catch(emit_(In, Out), E, true),
    ( var(E) -> R = ok ; R = E ).
emit_(In, Out) :-
    open(In, read, S),
    open(Out, write, O),
    emit_loop(S, O),
    close(S),
    close(O).
emit_loop(S, O) :-
    read_term(S, T, []),
    (   T == end_of_file -> true
    ;   T = w(W, C),
        write_clause(W, O, C),
        put_char(O, '\x1\'),
        emit_loop(S, O)
    ).

write_clause(portray, O, C) :- portray_clause(O, C).
write_clause(writeq, O, C) :-
    writeq(O, C), dot(O, C, [quoted(true), numbervars(true)]).
write_clause(canonical, O, C) :-
    write_canonical(O, C), dot(O, C, [quoted(true), ignore_ops(true)]).
write_clause(quoted, O, C) :-
    write_term(O, C, [quoted(true)]), dot(O, C, [quoted(true)]).

% The end of a clause: ".\n", or " .\n" after a symbol character, as
% portray_clause/2 does (`a= +` then `.` would be the atom `+.`).
dot(O, C, Opts) :-
    write_term_to_chars(C, Opts, Cs),
    (   append(_, [L], Cs), char_type(L, graphic_token)
    ->  format(O, " .~n", [])
    ;   format(O, ".~n", [])
    ).

% check(+In, +Kb, +Out, -R): reads the clauses of Kb (after its first term, the
% op directive) and writes a line for each: the predicate it is a clause of
% ("pi Arity Code Code …", "directive" or "other"), then " = same" if it is a
% variant of In's clause at the same place, else " = differs " and both terms.
check(In, Kb, Out, R) :-
    catch(check_(In, Kb, Out), E, true),
    ( var(E) -> R = ok ; R = E ).
check_(In, Kb, Out) :-
    open(In, read, S),
    open(Kb, read, K),
    open(Out, write, O),
    read_term(K, _, []),
    check_loop(S, K, O),
    close(S),
    close(K),
    close(O).
check_loop(S, K, O) :-
    read_term(K, C2, []),
    (   C2 == end_of_file -> true
    ;   ( read_term(S, w(_, C), []) -> true ; C = '$none' ),
        clause_pi(C2, PI),
        write_pi(O, PI),
        (   subsumes_term(C, C2), subsumes_term(C2, C)
        ->  write(O, ' = same')
        ;   write(O, ' = differs '), writeq(O, C), write(O, '  read back as  '), writeq(O, C2)
        ),
        nl(O),
        check_loop(S, K, O)
    ).

clause_pi(C, other) :- var(C), !.
clause_pi((:- _), directive) :- !.
clause_pi((?- _), directive) :- !.
clause_pi((H :- _), PI) :- !, head_pi(H, 0, PI).
clause_pi((H --> _), PI) :- !,
    ( nonvar(H), H = (H1, _) -> true ; H1 = H ),
    head_pi(H1, 2, PI).
clause_pi(H, PI) :- head_pi(H, 0, PI).

head_pi(H, _, other) :- var(H), !.
head_pi(_:_, _, other) :- !.
head_pi([_|_], _, other) :- !.
head_pi(H, E, pi(N, A)) :- callable(H), !, functor(H, N, A0), A is A0 + E.
head_pi(_, _, other).

write_pi(O, pi(N, A)) :- !,
    atom_codes(N, Cs),
    write(O, pi), write(O, ' '), write(O, A),
    maplist(write_code(O), Cs).
write_pi(O, X) :- write(O, X).
write_code(O, C) :- write(O, ' '), write(O, C).
"#;

// ---------------------------------------------------------------------------
// Terms, rendered into text scryer reads without any ambiguity: every atom quoted,
// every compound in functional notation.

#[derive(Debug, Clone)]
enum PTerm {
    Atom(String),
    /// A double-quoted string (a list of characters in scryer).
    Str(String),
    /// An integer as decimal text.
    Int(String),
    Float(f64),
    Var(u8),
    Compound(String, Vec<PTerm>),
    List(Vec<PTerm>, Option<Box<PTerm>>),
}

/// `s` between `q` quotes with the escapes scryer reads.
fn quote(s: &str, q: char) -> String {
    let mut out = String::from(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            // Raw control characters and any layout but the space are syntax errors
            // inside quotes (U+0085, U+2028 and U+00A0 included).
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                out.push_str(&format!("\\x{:x}\\", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

fn float_text(f: f64) -> String {
    let s = format!("{f:?}");
    match s.split_once('e') {
        Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
        _ => s,
    }
}

impl PTerm {
    fn render(&self, out: &mut String) {
        match self {
            PTerm::Atom(a) => out.push_str(&quote(a, '\'')),
            PTerm::Str(s) => out.push_str(&quote(s, '"')),
            PTerm::Int(i) => out.push_str(i),
            PTerm::Float(f) => out.push_str(&float_text(*f)),
            PTerm::Var(v) => out.push_str(&format!("V{v}")),
            PTerm::Compound(name, args) => {
                out.push_str(&quote(name, '\''));
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.render(out);
                }
                out.push(')');
            }
            PTerm::List(items, tail) => {
                out.push('[');
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.render(out);
                }
                if let Some(t) = tail {
                    out.push('|');
                    t.render(out);
                }
                out.push(']');
            }
        }
    }
}

#[derive(Debug, Clone)]
enum Kind {
    Fact,
    Rule(PTerm),
    Dcg(PTerm),
}

#[derive(Debug, Clone)]
struct PClause {
    name: String,
    args: Vec<PTerm>,
    kind: Kind,
    writer: &'static str,
}

impl PClause {
    fn head(&self) -> PTerm {
        if self.args.is_empty() {
            PTerm::Atom(self.name.clone())
        } else {
            PTerm::Compound(self.name.clone(), self.args.clone())
        }
    }

    fn term(&self) -> PTerm {
        match &self.kind {
            Kind::Fact => self.head(),
            Kind::Rule(b) => PTerm::Compound(":-".into(), vec![self.head(), b.clone()]),
            Kind::Dcg(b) => PTerm::Compound("-->".into(), vec![self.head(), b.clone()]),
        }
    }

    /// The predicate the scanner must report.
    fn predicate(&self) -> (String, usize) {
        let extra = if matches!(self.kind, Kind::Dcg(_)) {
            2
        } else {
            0
        };
        (self.name.clone(), self.args.len() + extra)
    }
}

/// Atoms that stress the writer and the scanner: operators, punctuation, quotes.
const SPECIAL_ATOMS: &[&str] = &[
    ".",
    "===>",
    "[]",
    "{}",
    ",",
    "|",
    "-",
    "+",
    "\\",
    ";",
    "!",
    ":-",
    "-->",
    "?-",
    "is",
    "mod",
    "dynamic",
    "\\+",
    "->",
    "*",
    "^",
    ":",
    "=..",
    "+.",
    "/*",
    "*/",
    "%",
    "'",
    "\"",
    "`",
    "",
    " ",
    "a.b",
    "[a]",
    "$VAR",
    "end_of_file",
    "0'a",
    "a\\",
    ". ",
    "\\x1\\",
    "''",
];

fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => any::<char>(),
        4 => prop::sample::select(vec![
            '\u{0}', '\u{1}', '\u{7}', '\n', '\r', '\t', '\u{b}', '\u{c}', '\u{7f}', '\u{85}',
            '\u{a0}', '\u{ad}', '\u{2028}', '\u{2029}', '\u{feff}', '\'', '"', '`', '\\', '.',
            ' ', '%', '/', '*', '(', ',', '|', '0', 'x', 'a', 'Z', '_', '中', 'ü', 'ǅ', '→',
        ]),
    ]
}

fn atom_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z][a-zA-Z0-9_]{0,5}",
        3 => prop::collection::vec(tricky_char(), 0..6).prop_map(|v| v.into_iter().collect()),
        2 => prop::sample::select(SPECIAL_ATOMS).prop_map(String::from),
    ]
}

fn leaf() -> impl Strategy<Value = PTerm> {
    prop_oneof![
        4 => atom_name().prop_map(PTerm::Atom),
        1 => prop::collection::vec(tricky_char(), 0..5)
            .prop_map(|v| PTerm::Str(v.into_iter().filter(|c| *c != '\u{0}').collect())),
        2 => any::<i64>().prop_map(|i| PTerm::Int(i.to_string())),
        1 => ("-?[1-9][0-9]{18,40}").prop_map(PTerm::Int),
        1 => any::<f64>()
            .prop_filter("finite, not -0.0", |f| f.is_finite() && !(*f == 0.0 && f.is_sign_negative()))
            .prop_map(PTerm::Float),
        1 => prop::sample::select(vec![0.0, 1.0, 0.1, 1.5e300, 1e-300, 5e-324, 1e15, 1e16, 123.456])
            .prop_map(PTerm::Float),
        1 => (0u8..4).prop_map(PTerm::Var),
    ]
}

/// Names of operators, for terms in operator syntax.
const OPERATORS: &[(&str, usize)] = &[
    ("-", 1),
    ("-", 2),
    ("+", 2),
    ("\\", 1),
    ("\\+", 1),
    ("=", 2),
    ("is", 2),
    ("^", 2),
    ("**", 2),
    ("*", 2),
    (":", 2),
    (",", 2),
    (";", 2),
    ("->", 2),
    ("===>", 2),
    ("=..", 2),
    ("mod", 2),
    ("{}", 1),
    ("[]", 1),
    ("|", 2),
    (".", 2),
    (":-", 1),
    (":-", 2),
    ("-->", 2),
];

fn term() -> impl Strategy<Value = PTerm> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            3 => (atom_name().prop_filter("not $VAR", |n| n != "$VAR"),
                  prop::collection::vec(inner.clone(), 1..4))
                .prop_map(|(n, a)| PTerm::Compound(n, a)),
            2 => (prop::sample::select(OPERATORS), inner.clone(), inner.clone()).prop_map(
                |((op, arity), a, b)| {
                    let args = if arity == 1 { vec![a] } else { vec![a, b] };
                    PTerm::Compound(op.to_string(), args)
                }
            ),
            2 => (prop::collection::vec(inner.clone(), 0..4), prop::option::of(inner))
                .prop_map(|(items, tail)| {
                    let tail = tail.filter(|_| !items.is_empty()).map(Box::new);
                    PTerm::List(items, tail)
                }),
        ]
    })
}

/// `t` as a goal portray_clause/2 writes back as the same term: it prints
/// `((a, b), c)` as `a, b, c`, which reads back as `(a, (b, c))`.
fn goal(t: PTerm) -> PTerm {
    match t {
        PTerm::Compound(op, args) if args.len() == 2 && [",", ";", "->"].contains(&op.as_str()) => {
            let mut it = args.into_iter().map(goal);
            let (Some(l), Some(r)) = (it.next(), it.next()) else {
                unreachable!("two arguments")
            };
            let l = match l {
                PTerm::Compound(c, a) if op == "," && c == "," && a.len() == 2 => {
                    PTerm::Compound("call".into(), vec![PTerm::Compound(c, a)])
                }
                l => l,
            };
            PTerm::Compound(op, vec![l, r])
        }
        t => t,
    }
}

/// A body: a goal, a conjunction, a disjunction, an if-then-else, a negation.
fn body() -> impl Strategy<Value = PTerm> {
    (
        prop::collection::vec(term(), 1..4),
        prop::sample::select(vec![",", ",", ";", "->", "\\+"]),
    )
        .prop_map(|(goals, op)| {
            let mut it = goals.into_iter().rev();
            let mut b = it.next().unwrap_or(PTerm::Atom("true".into()));
            for g in it {
                b = if op == "\\+" {
                    PTerm::Compound(",".into(), vec![PTerm::Compound("\\+".into(), vec![g]), b])
                } else {
                    PTerm::Compound(op.into(), vec![g, b])
                };
            }
            goal(b)
        })
}

fn head_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["p", "q", "user_role", "role"]).prop_map(String::from),
        3 => atom_name(),
        2 => prop::sample::select(vec![
            "-", "+", "=", ";", ",", "===>", "is", "\\+", "\\", "{}", "[]", "|", "dynamic",
            "->", "^", "mod", "=..", "'", "''", "\u{1}", "a.b", ". ",
        ])
        .prop_map(String::from),
    ]
}

fn clause() -> impl Strategy<Value = PClause> {
    (
        head_name(),
        prop::collection::vec(term(), 0..4),
        prop_oneof![
            3 => Just(0u8),
            2 => Just(1u8),
            1 => Just(2u8),
        ],
        body(),
        prop::sample::select(vec!["portray", "writeq", "canonical", "quoted"]),
    )
        .prop_filter_map("clauses only", |(name, args, kind, body, writer)| {
            // `:-`, `-->`, `?-` and `:` heads make another kind of clause; `'.'/2` is a
            // list; `end_of_file` ends the reading.
            let reserved = [":-", "-->", "?-", ":", "end_of_file"].contains(&name.as_str())
                || (name == "." && args.len() == 2);
            if reserved {
                return None;
            }
            let kind = match kind {
                0 => Kind::Fact,
                // `(a, b) --> …` is a rule of `a` with pushback `b`.
                2 if !(name == "," && args.len() == 2) => Kind::Dcg(body),
                _ => Kind::Rule(body),
            };
            Some(PClause {
                name,
                args,
                kind,
                writer,
            })
        })
}

/// Layout and comments put between the written clauses.
const SEPARATORS: &[&str] = &[
    "",
    "\n",
    "\n\n",
    "% a comment. 'with a quote\n",
    "/* a block. \"comment */",
    "/* x */ ",
    "\t",
    "%\n% p(x).\n",
];

// ---------------------------------------------------------------------------
// The machine.

struct Engine {
    machine: Machine,
    dir: PathBuf,
}

impl Engine {
    fn new() -> Engine {
        let dir = std::env::temp_dir().join(format!("charon-scanner-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let program = dir.join("program.pl");
        std::fs::write(&program, PROGRAM).expect("write program");
        let mut machine = MachineBuilder::default().build();
        let answers: Vec<_> = machine
            .run_query(format!("consult({}).", path_atom(&program)))
            .collect();
        assert!(
            matches!(answers.first(), Some(Ok(LeafAnswer::True))),
            "consult: {answers:?}"
        );
        Engine { machine, dir }
    }

    /// Runs `goal`, whose last argument is the result `R`, and wants `R = ok`.
    fn call(&mut self, goal: &str) -> Result<(), String> {
        let answer = self.machine.run_query(goal).next();
        match answer {
            Some(Ok(LeafAnswer::LeafAnswer { bindings, .. })) => match bindings.get("R") {
                Some(Term::Atom(a)) if a == "ok" => Ok(()),
                other => Err(format!("{goal} gave R = {other:?}")),
            },
            other => Err(format!("{goal} gave {other:?}")),
        }
    }
}

/// A line of check/4's report: the predicate scryer read, and "same" or "differs …".
fn parse_report_line(line: &str) -> (Option<(String, usize)>, &str) {
    let (pi, verdict) = line.split_once(" = ").unwrap_or((line, ""));
    let mut words = pi.split(' ');
    let pi = match words.next() {
        Some("pi") => {
            let arity = words
                .next()
                .and_then(|a| a.parse().ok())
                .unwrap_or(usize::MAX);
            let name = words
                .map(|c| {
                    c.parse::<u32>()
                        .ok()
                        .and_then(char::from_u32)
                        .unwrap_or('\u{fffd}')
                })
                .collect();
            Some((name, arity))
        }
        _ => None,
    };
    (pi, verdict)
}

fn path_atom(p: &Path) -> String {
    quote(&p.to_string_lossy(), '\'')
}

/// Writes `clauses` with scryer, joins them with `seps`, and checks the scanner.
fn check_case(
    engine: &mut Engine,
    clauses: &[PClause],
    seps: &[usize],
    writer_bugs: &mut Vec<String>,
) -> Result<(), TestCaseError> {
    let input = engine.dir.join("in.pl");
    let written = engine.dir.join("out.txt");
    let kb_path = engine.dir.join("kb.pl");
    let report = engine.dir.join("check.txt");
    let mut text = String::new();
    for c in clauses {
        text.push_str(&format!("w({}, ", c.writer));
        c.term().render(&mut text);
        text.push_str(").\n");
    }
    std::fs::write(&input, &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    engine
        .call(&format!(
            "emit({}, {}, R).",
            path_atom(&input),
            path_atom(&written)
        ))
        .map_err(|e| TestCaseError::fail(format!("{e}\ninput:\n{text}")))?;
    let out = std::fs::read_to_string(&written).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let pieces: Vec<&str> = out.split('\u{1}').collect();
    prop_assert_eq!(pieces.len(), clauses.len() + 1, "pieces of {:?}", out);
    prop_assert_eq!(pieces[clauses.len()], "");

    // The knowledge base: the op directive, then the clauses with layout and
    // comments between them.
    let mut kb = String::from(":- op(700, xfx, ===>).\n");
    let mut expected = Vec::new();
    for (i, piece) in pieces[..clauses.len()].iter().enumerate() {
        prop_assert!(piece.ends_with(".\n"), "{:?}", piece);
        kb.push_str(SEPARATORS[seps[i % seps.len()]]);
        let start = kb.len();
        kb.push_str(piece);
        expected.push(start..start + piece.len() - 1);
    }

    if std::env::var_os("SCANNER_DUMP").is_some() {
        eprintln!("=====\n{kb}");
    }
    let found = charon_pldoc::clauses(&kb);
    prop_assert_eq!(found.len(), clauses.len() + 1, "clauses of\n{}", kb);
    prop_assert!(found[0].directive && found[0].predicate.is_none());
    prop_assert_eq!(found[0].bytes.clone(), 0..kb.find('\n').unwrap_or(0));
    for (span, bytes) in found[1..].iter().zip(&expected) {
        prop_assert_eq!(
            &span.bytes,
            bytes,
            "span of {:?} in\n{}",
            &kb[bytes.clone()],
            kb
        );
        prop_assert!(kb[span.bytes.clone()].ends_with('.'));
        prop_assert!(!span.directive, "{:?}", &kb[bytes.clone()]);
    }

    // What the engine reads from the same text: the scanner must agree with it.
    std::fs::write(&kb_path, &kb).map_err(|e| TestCaseError::fail(e.to_string()))?;
    engine
        .call(&format!(
            "check({}, {}, {}, R).",
            path_atom(&input),
            path_atom(&kb_path),
            path_atom(&report)
        ))
        .map_err(|e| TestCaseError::fail(format!("{e}\nkb:\n{kb}")))?;
    let report =
        std::fs::read_to_string(&report).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let read: Vec<(Option<(String, usize)>, &str)> =
        report.lines().map(parse_report_line).collect();
    prop_assert_eq!(
        read.len(),
        found.len() - 1,
        "scryer's clauses of\n{}\n{}",
        kb,
        report
    );
    for ((pi, verdict), (span, c)) in read.iter().zip(found[1..].iter().zip(clauses)) {
        prop_assert_eq!(
            &span.predicate,
            pi,
            "scanner and scryer disagree on {:?}",
            &kb[span.bytes.clone()]
        );
        if *verdict != "same" || pi.as_ref() != Some(&c.predicate()) {
            writer_bugs.push(format!(
                "{:?} ({}): {verdict}",
                &kb[span.bytes.clone()],
                c.writer
            ));
        }
    }
    Ok(())
}

#[test]
fn scanner_reads_what_scryer_writes() {
    let engine = RefCell::new(Engine::new());
    let writer_bugs = RefCell::new(Vec::new());
    let mut runner = TestRunner::new(Config {
        cases: 160,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        prop::collection::vec(clause(), 1..8),
        prop::collection::vec(0..SEPARATORS.len(), 1..4),
    );
    let result = runner.run(&strategy, |(clauses, seps)| {
        check_case(
            &mut engine.borrow_mut(),
            &clauses,
            &seps,
            &mut writer_bugs.borrow_mut(),
        )
    });
    let dir = engine.borrow().dir.clone();
    let _ = std::fs::remove_dir_all(dir);
    // Clauses scryer wrote but reads back as another term: the engine's writer bugs
    // (the scanner still agreed with the engine on them), shown with --nocapture.
    let bugs = writer_bugs.into_inner();
    if !bugs.is_empty() {
        eprintln!(
            "{} clause(s) scryer does not read back as written, e.g.:",
            bugs.len()
        );
        for b in bugs.iter().take(5) {
            eprintln!("  {b}");
        }
    }
    if let Err(e) = result {
        panic!("{e}");
    }
}
