//! Expansion tests on `proc_macro2`: no compiler plugin, no engine.

use std::path::{Path, PathBuf};

use quote::quote;

use crate::expand;

/// A scratch directory holding `kb.pl` with `text`.
fn dir_with(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("charon-codegen-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("kb.pl"), text).expect("write kb");
    dir
}

fn expand_str(input: proc_macro2::TokenStream, dir: &Path) -> String {
    expand(input, Some(dir)).to_string()
}

const GOOD: &str =
    "%! pim_check(+Age:int, +Drugs:list(atom), -Substance:atom, -Reason:string) is nondet.
%
%  Potentially inappropriate medication.
%
%  @arg Age Age in years.
pim_check(_, _, a, \"b\").

%! ready is semidet.
ready.
";

#[test]
fn generates_type_methods_structs_and_tracking() {
    let dir = dir_with("good", GOOD);
    let out = expand_str(quote!("kb.pl"), &dir);
    assert!(out.contains("pub struct Kb"), "{out}");
    assert!(out.contains("pub mod kb"), "{out}");
    assert!(out.contains("pub struct PimCheck"), "{out}");
    assert!(out.contains("rename = \"Substance\""), "{out}");
    assert!(
        out.contains(
            "pub async fn pim_check (& self , age : :: core :: primitive :: i64 , drugs : & [impl :: core :: convert :: AsRef < :: core :: primitive :: str >])"
        ),
        "{out}"
    );
    assert!(out.contains(":: core :: include_bytes !"), "{out}");
    assert!(
        out.contains("pub async fn ready (& self ,) -> :: core :: result :: Result < :: core :: primitive :: bool"),
        "{out}"
    );
    assert!(!out.contains("compile_error"), "{out}");
}

#[test]
fn explicit_name_and_visibility() {
    let dir = dir_with("named", GOOD);
    let out = expand_str(quote!(pub(crate) Pharmacy = "kb.pl"), &dir);
    assert!(out.contains("pub (crate) struct Pharmacy"), "{out}");
    assert!(out.contains("pub (crate) mod pharmacy"), "{out}");
}

#[test]
fn every_mistake_is_reported_and_good_operations_survive() {
    let dir = dir_with(
        "bad",
        "%! a(?X:int) is det.\na(1).\n\n%! b(+X:stream) is det.\nb(_).\n\n%! c(-X:int) is det.\nc(1).\n",
    );
    let out = expand_str(quote!("kb.pl"), &dir);
    assert_eq!(out.matches("compile_error").count(), 2, "{out}");
    assert!(out.contains("kb.pl:1:6"), "{out}");
    assert!(out.contains("kb.pl:4:9"), "{out}");
    assert!(out.contains("pub async fn c"), "{out}");
}

#[test]
fn absolute_and_missing_paths_are_errors_with_a_stub_type() {
    let dir = dir_with("paths", GOOD);
    let out = expand_str(quote!("/etc/kb.pl"), &dir);
    assert!(out.contains("absolute path"), "{out}");
    assert!(out.contains("pub struct Kb"), "{out}");
    let out = expand_str(quote!("nope.pl"), &dir);
    assert!(out.contains("cannot read `nope.pl`"), "{out}");
    assert!(out.contains("pub struct Nope"), "{out}");
}

#[test]
fn bad_input_is_a_syntax_error() {
    let dir = dir_with("input", GOOD);
    let out = expand_str(quote!(Kb "kb.pl"), &dir);
    assert!(out.contains("compile_error"), "{out}");
}

#[test]
fn methods_that_would_clash_with_the_type_s_own_are_renamed() {
    let dir = dir_with("clash", "%! router(-X:int) is det.\nrouter(1).\n");
    let out = expand_str(quote!("kb.pl"), &dir);
    assert!(out.contains("pub async fn router_op"), "{out}");
}

#[test]
fn names_rust_cannot_take_are_errors_not_panics() {
    let dir = dir_with("odd", GOOD);
    std::fs::write(dir.join("2024.pl"), GOOD).expect("write");
    let out = expand_str(quote!("2024.pl"), &dir);
    assert!(out.contains("cannot make a type name"), "{out}");
    assert!(out.contains("pub struct UnnamedKnowledgeBase"), "{out}");
    // An argument name with a character identifiers cannot hold.
    std::fs::write(
        dir.join("kb.pl"),
        "%! p(+X²:int, -Y:int) is det.\np(X, X).\n",
    )
    .expect("write");
    let out = expand_str(quote!("kb.pl"), &dir);
    assert!(
        out.contains("pub async fn p (& self , x_ : :: core :: primitive :: i64)"),
        "{out}"
    );
    // `self.pl` would make `struct Self`.
    std::fs::write(dir.join("self.pl"), GOOD).expect("write");
    let out = expand_str(quote!("self.pl"), &dir);
    assert!(out.contains("cannot make a type name"), "{out}");
}

#[test]
fn pldoc_text_cannot_become_doc_tests_or_links() {
    let dir = dir_with(
        "docs",
        "%! p(+X:int) is det.\n%\n%  See [the list] and <b>.\n%\n%  ```\n%  p(1).\n%  ```\np(_).\n",
    );
    let out = expand_str(quote!("kb.pl"), &dir);
    assert!(out.contains("\\\\[the list\\\\]"), "{out}");
    assert!(out.contains("&lt;b&gt;"), "{out}");
    assert!(out.contains("```text"), "{out}");
}

#[test]
fn every_file_loaded_is_compiled_in_and_checked_in_load_order() {
    let dir = dir_with(
        "files",
        ":- use_module(ops).\n:- include('sub/facts.pl').\n%! p(-X:atom) is nondet.\np(X) :- fact(X).\n",
    );
    std::fs::create_dir_all(dir.join("sub")).expect("sub");
    // An operator declared by a module the main file loads is in force after it.
    std::fs::write(
        dir.join("ops.pl"),
        ":- module(ops, [op(700, xfx, ===>)]).\n",
    )
    .expect("write");
    std::fs::write(dir.join("sub/facts.pl"), "fact(a ===> b).\nfact(b c).\n").expect("write");
    let out = expand_str(quote!("kb.pl"), &dir);
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert!(out.contains("sub/facts.pl:2:8: syntax error"), "{out}");
    assert_eq!(
        out.matches(":: core :: include_bytes !").count(),
        3,
        "{out}"
    );
    assert!(out.contains("\"sub/facts.pl\""), "{out}");
    // A file that is not there is named with the directive's place.
    std::fs::write(dir.join("sub/facts.pl"), ":- include(nowhere).\n").expect("write");
    let out = expand_str(quote!("kb.pl"), &dir);
    assert!(
        out.contains("sub/facts.pl:1: the knowledge base loads `nowhere`"),
        "{out}"
    );
}

#[test]
fn two_calls_making_one_type_get_a_hint_unless_cfg_keeps_them_apart() {
    let dir = dir_with("stems", GOOD);
    std::fs::create_dir_all(dir.join("a")).expect("a");
    std::fs::create_dir_all(dir.join("b")).expect("b");
    std::fs::write(dir.join("a/kb.pl"), GOOD).expect("write");
    std::fs::write(dir.join("b/kb.pl"), GOOD).expect("write");
    let main = dir.join("main.rs");
    let expand_with = |source: &str| {
        std::fs::write(&main, source).expect("write main.rs");
        crate::expand_in(quote!("a/kb.pl"), Some(&dir), Some(&main)).to_string()
    };
    let out = expand_with(
        "charon::knowledge_base!(\"a/kb.pl\");\ncharon::knowledge_base!(\"b/kb.pl\");\nfn main() {}\n",
    );
    assert!(out.contains("make the type `Kb`"), "{out}");
    // In different modules, or alternatives under cfg: no hint.
    for source in [
        "mod x { charon::knowledge_base!(\"a/kb.pl\"); }\nmod y { charon::knowledge_base!(\"b/kb.pl\"); }\n",
        "#[cfg(feature = \"x\")]\ncharon::knowledge_base!(\"a/kb.pl\");\n#[cfg(not(feature = \"x\"))]\ncharon::knowledge_base!(\"b/kb.pl\");\n",
        "charon::knowledge_base!(\"a/kb.pl\");\ncharon::knowledge_base!(Other = \"b/kb.pl\");\n",
    ] {
        let out = expand_with(source);
        assert!(!out.contains("make the type"), "{source}: {out}");
    }
}
