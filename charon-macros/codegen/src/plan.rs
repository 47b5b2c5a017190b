//! What to generate, checked: the file read and analysed, Rust names chosen, every
//! mistake collected as a `syn::Error` pointing at the path literal.

use std::path::{Path, PathBuf};

use charon_pldoc::{Determinism, Mode, Operation, Type};
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
    /// The file to track for rebuilds, when it could be read.
    pub tracked: Option<PathBuf>,
    /// Its text, compiled in.
    pub source: String,
    /// Every exposed operation, in file order (their index is their id).
    pub operations: Vec<Operation>,
    /// One method per operation that could be given one.
    pub methods: Vec<MethodPlan>,
    /// Compile errors to emit.
    pub errors: Vec<syn::Error>,
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

pub(crate) fn plan(input: &Input, manifest_dir: Option<&Path>) -> Plan {
    let span = input.path.span();
    let file = input.path.value();
    let error = |message: String| syn::Error::new(span, message);
    let stem = Path::new(&file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let derived = names::camel(&stem);
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
        tracked: None,
        source: String::new(),
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
            "{rejection}\n{}",
            rejection.location.snippet(&source)
        )));
    }
    plan.tracked = Some(path);
    plan.source = source;
    plan.operations = report.operations;
    plan_methods(&mut plan, span);
    plan
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
                    "{}: operations `{}` and `{other}` would both be the Rust method `{method}`; rename one of the predicates\n{}",
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
