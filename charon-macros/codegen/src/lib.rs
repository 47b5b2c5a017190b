//! Code generation behind `charon::knowledge_base!`.
//!
//! [`expand`] parses the macro input, reads and analyses the `.pl` file with
//! `charon-pldoc` (the same analysis the runtime uses), and generates the typed API.
//! It is ordinary code over `proc_macro2`, so it is unit-tested without a compiler
//! plugin, and it never builds the engine.
//!
//! Steps, in the serde_derive way: read the input (`input`), build the model of what
//! to generate and check it (`plan`: Rust names, types, every mistake collected),
//! then generate (`generate`). Every PlDoc mistake becomes its own `compile_error!`
//! naming `file:line:column` with the offending line; the type is generated anyway with
//! the operations that are fine, so one mistake does not cascade.
//!
//! # Layers
//!
//! Each module imports only from those below it: this file (`expand`) over
//! `generate` (the items), `siblings` (a type name two calls would share) and
//! `plan`; `generate` over `plan` and `model` (the operation model as Rust
//! tokens); `siblings` over `plan` and `input`; `plan` over `input` (the macro's
//! arguments) and `names` (Rust names); `input`, `model` and `names` import
//! nothing of the crate.

mod generate;
mod input;
mod model;
mod names;
mod plan;
mod siblings;

use std::path::Path;

use proc_macro2::TokenStream;

/// Expands `knowledge_base!(…)`. `manifest_dir` is the invoking crate's
/// `CARGO_MANIFEST_DIR` (relative paths are resolved against it).
pub fn expand(input: TokenStream, manifest_dir: Option<&Path>) -> TokenStream {
    expand_in(input, manifest_dir, None)
}

/// [`expand`] for a call in the source file `call_file` (when the compiler says
/// which), read to tell two calls in one module that make the same type.
pub fn expand_in(
    input: TokenStream,
    manifest_dir: Option<&Path>,
    call_file: Option<&Path>,
) -> TokenStream {
    let input = match syn::parse2::<input::Input>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut plan = plan::plan(&input, manifest_dir);
    if let Some(hint) = call_file.and_then(|file| siblings::collision(&input, file)) {
        plan.errors.push(syn::Error::new(input.path.span(), hint));
    }
    generate::generate(&plan)
}

#[cfg(test)]
mod tests;
