//! What to generate, checked: the file read and analysed, Rust names chosen, every
//! mistake collected as a `syn::Error` pointing at the path literal.

use std::path::{Path, PathBuf};

use charon_pldoc::{
    Determinism, LoadProblem, Mode, Operation, Type, normalize, resolve_loaded as resolve,
};
use proc_macro2::{Ident, Span};
use syn::Visibility;

use crate::input::Input;
use crate::names;

/// Methods the generated type has of its own; an operation whose method name would
/// be one of these gets `_op` appended.
const OWN_METHODS: &[&str] = &[
    "load",
    "load_with",
    "load_file",
    "operations",
    "knowledge_base",
    "router",
    "router_with",
    "mcp_server",
    "mcp_router",
    "blocking",
    "clone",
    "fmt",
];

/// The whole expansion.
pub(crate) struct Plan {
    pub vis: Visibility,
    pub type_name: Ident,
    /// The module holding the answer structs and the blocking view.
    pub module: Ident,
    /// The path as written in the macro call.
    pub file: String,
    /// The main file's text, compiled in.
    pub source: String,
    /// Every file of the knowledge base (the main file first, then the files it
    /// loads), compiled in and tracked for rebuilds.
    pub files: Vec<Embedded>,
    /// How messages name the directory the files' paths are relative to: relative
    /// to the crate's directory, as the macro call writes paths.
    pub root: String,
    /// Every exposed operation, in file order (their index is their id).
    pub operations: Vec<Operation>,
    /// One method per operation that could be given one.
    pub methods: Vec<MethodPlan>,
    /// Compile errors to emit.
    pub errors: Vec<syn::Error>,
}

/// One file compiled in.
pub(crate) struct Embedded {
    /// Its path relative to the common directory of all the files (`/`-separated).
    pub path: String,
    /// Where it was read, to track for rebuilds.
    pub abs: PathBuf,
    pub text: String,
}

/// One typed method.
pub(crate) struct MethodPlan {
    /// Index of the operation.
    pub index: usize,
    pub ident: Ident,
    pub params: Vec<Param>,
    pub returns: Returns,
    /// The answer struct, for an operation with several outputs.
    pub answer: Option<AnswerStruct>,
    /// Why the method name differs from the operation name, if it does more than case.
    pub renamed: Option<String>,
}

/// One input parameter.
pub(crate) struct Param {
    pub ident: Ident,
    pub name: String,
    pub ty: Type,
    pub doc: Option<String>,
}

/// A multi-output operation's answer: a struct with one field per output.
pub(crate) struct AnswerStruct {
    pub ident: Ident,
    pub fields: Vec<Param>,
}

/// What a method returns, from the declared determinism and the outputs.
pub(crate) enum Returns {
    /// `det`, no outputs: `()`.
    Unit,
    /// `semidet`, no outputs: `bool`.
    Bool,
    /// Several solutions, no outputs: how many (`usize`).
    Count,
    /// `det`: `T`.
    One(Solution),
    /// `semidet`: `Option<T>`.
    Maybe(Solution),
    /// `nondet`, `multi`, `failure`, undeclared: `Vec<T>`.
    Many(Solution),
}

/// The Rust type of one solution.
pub(crate) enum Solution {
    /// The one output's type.
    Value(Type),
    /// The answer struct.
    Struct,
}

/// The type name made from a path's file stem (`kb/meds.pl`: `Meds`).
fn derived_name(file: &str) -> String {
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    names::camel(&stem)
}

/// The name of the type a call makes, if it can make one.
pub(crate) fn type_name_for(input: &Input) -> Option<String> {
    match &input.name {
        Some(name) => Some(name.to_string()),
        None => Some(derived_name(&input.path.value())).filter(|d| names::is_plain(d)),
    }
}

pub(crate) fn plan(input: &Input, manifest_dir: Option<&Path>) -> Plan {
    let span = input.path.span();
    let file = input.path.value();
    let error = |message: String| syn::Error::new(span, message);
    let derived = derived_name(&file);
    let type_name = match &input.name {
        Some(name) => name.clone(),
        None if names::is_plain(&derived) => Ident::new(&derived, span),
        // Reported below; the stub type still gets a name.
        None => Ident::new("UnnamedKnowledgeBase", span),
    };
    let module = names::ident(&names::snake(&type_name.to_string()));
    let mut plan = Plan {
        vis: input.vis.clone(),
        type_name,
        module,
        file: file.clone(),
        source: String::new(),
        files: Vec::new(),
        root: String::new(),
        operations: Vec::new(),
        methods: Vec::new(),
        errors: Vec::new(),
    };
    if input.name.is_none() && !names::is_plain(&derived) {
        plan.errors.push(error(format!(
            "cannot make a type name from `{file}`; name it: `knowledge_base!(MyKb = \"{file}\")`"
        )));
    }
    if Path::new(&file).is_absolute() {
        plan.errors.push(error(format!(
            "`{file}` is an absolute path; give a path relative to the crate's directory (CARGO_MANIFEST_DIR), so the crate builds on any machine"
        )));
        return plan;
    }
    let Some(dir) = manifest_dir else {
        plan.errors.push(error(
            "CARGO_MANIFEST_DIR is not set; build with cargo".to_string(),
        ));
        return plan;
    };
    let path = dir.join(&file);
    let source = match std::fs::read_to_string(&path) {
        Ok(source) => source,
        Err(e) => {
            plan.errors.push(error(format!(
                "cannot read `{file}` (relative to CARGO_MANIFEST_DIR): {e}"
            )));
            return plan;
        }
    };
    let report = charon_pldoc::analyse(&file, &source);
    for rejection in &report.rejections {
        plan.errors.push(error(format!(
            "{rejection}\n{}\nhelp: a predicate documented with `%!` becomes an operation; to leave `{}` out, add the line `%  @charon skip` to its PlDoc",
            rejection.location.snippet(&source),
            rejection.predicate
        )));
    }
    match embed(dir, &path, &source) {
        Ok((root, files)) => {
            for e in syntax_errors(dir, &files) {
                plan.errors.push(error(e));
            }
            plan.root = root;
            plan.files = files;
        }
        Err(message) => plan.errors.push(error(message)),
    }
    plan.source = source;
    plan.operations = report.operations;
    plan_methods(&mut plan, span);
    plan
}

/// The main file and every file it loads, recursively (the engine's libraries
/// excepted), each once, with their common directory named relative to the crate's.
fn embed(manifest: &Path, main: &Path, text: &str) -> Result<(String, Vec<Embedded>), String> {
    let shown = |p: &Path| relative(manifest, p).display().to_string();
    let found = charon_pldoc::knowledge_base_files(
        main,
        text.to_string(),
        |file, line, spec, problem| {
            let at = format!("{}:{line}", shown(file));
            Err(match problem {
                LoadProblem::Absolute => format!(
                    "{at}: `{spec}` is an absolute path; load it by a path relative to the file that loads it, so the crate builds on any machine"
                ),
                LoadProblem::Missing => format!(
                    "{at}: the knowledge base loads `{spec}`, but neither `{spec}.pl` nor `{spec}` is in {}",
                    shown(file.parent().unwrap_or(Path::new("")))
                ),
                LoadProblem::Unreadable(e) => {
                    format!("{at}: cannot read the file `{spec}` names: {e}")
                }
                _ => format!("{at}: cannot follow `{spec}`"),
            })
        },
    )?;
    let mut root = found[0].0.parent().unwrap_or(Path::new("")).to_path_buf();
    for (file, _) in &found {
        while !file.starts_with(&root) {
            if !root.pop() {
                break;
            }
        }
    }
    let files = found
        .into_iter()
        .map(|(abs, text)| Embedded {
            path: abs
                .strip_prefix(&root)
                .unwrap_or(&abs)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            abs,
            text,
        })
        .collect();
    Ok((shown(&root), files))
}

/// What the engine would refuse to read in the files, checked in the order it loads
/// them (operators carry over), each with the offending line.
fn syntax_errors(manifest: &Path, files: &[Embedded]) -> Vec<String> {
    use charon_pldoc::{SyntaxCheck, SyntaxError};
    fn visit(
        check: &mut SyntaxCheck,
        manifest: &Path,
        files: &[Embedded],
        index: usize,
        seen: &mut Vec<usize>,
    ) -> Vec<SyntaxError> {
        if seen.contains(&index) {
            return Vec::new();
        }
        seen.push(index);
        let file = &files[index];
        let name = relative(manifest, &file.abs).display().to_string();
        let dir = file.abs.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut load = |check: &mut SyntaxCheck, spec: &str| match resolve(&dir, spec)
            .and_then(|p| files.iter().position(|f| f.abs == p))
        {
            Some(next) => visit(check, manifest, files, next, seen),
            None => Vec::new(),
        };
        check.file(&name, &file.text, &mut load)
    }
    if files.is_empty() {
        return Vec::new();
    }
    let mut check = SyntaxCheck::new(files.iter().map(|f| f.text.as_str()));
    let mut seen = Vec::new();
    let errors = visit(&mut check, manifest, files, 0, &mut seen);
    errors
        .into_iter()
        .map(|e| {
            let text = files
                .iter()
                .find(|f| relative(manifest, &f.abs).display().to_string() == *e.location.file)
                .map_or("", |f| f.text.as_str());
            format!("{e}\n{}", e.location.snippet(text))
        })
        .collect()
}

/// `to` relative to the directory `from` (both absolute), `""` for the same.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let from = normalize(from);
    let to = normalize(to);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in from.components().skip(common) {
        out.push("..");
    }
    for c in to.components().skip(common) {
        out.push(c);
    }
    out
}

fn plan_methods(plan: &mut Plan, span: Span) {
    let mut taken: Vec<(String, String)> = Vec::new();
    let mut structs: Vec<String> = vec!["Blocking".into()];
    for (index, op) in plan.operations.iter().enumerate() {
        let mut method = names::snake(&op.name);
        let mut renamed = None;
        if OWN_METHODS.contains(&method.as_str()) {
            renamed = Some(format!(
                "named `{method}_op` because `{method}` is a method of the knowledge-base type itself"
            ));
            method.push_str("_op");
        }
        if let Some((_, other)) = taken.iter().find(|(m, _)| *m == method) {
            plan.errors.push(syn::Error::new(
                span,
                format!(
                    "{}: operations `{}` and `{other}` would both be the Rust method `{method}`; give one of them another name with `@charon name other_name` in its PlDoc\n{}",
                    op.location,
                    op.name,
                    op.location.snippet(&plan.source)
                ),
            ));
            continue;
        }
        taken.push((method.clone(), op.name.to_string()));
        let inputs = params(op.inputs());
        let outputs: Vec<_> = op.outputs().collect();
        let mut answer = None;
        let solution = match outputs.as_slice() {
            [] => None,
            [one] => Some(Solution::Value(one.ty.clone())),
            _ => {
                let mut name = names::camel(&op.name);
                while structs.contains(&name) {
                    name.push_str("Answer");
                }
                structs.push(name.clone());
                answer = Some(AnswerStruct {
                    ident: names::ident(&name),
                    fields: params(outputs.iter().copied()),
                });
                Some(Solution::Struct)
            }
        };
        let returns = match (op.determinism, solution) {
            (Determinism::Det, None) => Returns::Unit,
            (Determinism::Semidet, None) => Returns::Bool,
            (_, None) => Returns::Count,
            (Determinism::Det, Some(s)) => Returns::One(s),
            (Determinism::Semidet, Some(s)) => Returns::Maybe(s),
            (_, Some(s)) => Returns::Many(s),
        };
        plan.methods.push(MethodPlan {
            index,
            ident: names::ident(&method),
            params: inputs,
            returns,
            answer,
            renamed,
        });
    }
}

/// Parameters (or fields) for arguments, with distinct snake-case names.
fn params<'a>(args: impl Iterator<Item = &'a charon_pldoc::Arg>) -> Vec<Param> {
    let mut out: Vec<Param> = Vec::new();
    for arg in args {
        debug_assert!(matches!(arg.mode, Mode::In | Mode::Out));
        let base = names::snake(&arg.name);
        let mut name = base.clone();
        let mut n = 2;
        while out.iter().any(|p| p.ident == names::ident(&name)) {
            name = format!("{base}_{n}");
            n += 1;
        }
        out.push(Param {
            ident: names::ident(&name),
            name: arg.name.to_string(),
            ty: arg.ty.clone(),
            doc: arg.doc.as_ref().map(|d| d.to_string()),
        });
    }
    out
}
