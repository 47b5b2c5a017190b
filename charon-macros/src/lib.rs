//! The `knowledge_base!` macro of Charon. A shell: the work is done by
//! `charon-codegen`, which is ordinary code (tested on `proc_macro2`) and never
//! builds the engine. Use the macro through `charon::knowledge_base!`, whose
//! documentation describes it.

use proc_macro::TokenStream;

/// Generates a typed API for a documented `.pl` file; see `charon::knowledge_base!`.
#[proc_macro]
pub fn knowledge_base(input: TokenStream) -> TokenStream {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from);
    // The file the call is in, read to tell two calls that would make one type.
    let call_file = proc_macro::Span::call_site().local_file();
    charon_codegen::expand_in(input.into(), manifest_dir.as_deref(), call_file.as_deref()).into()
}
