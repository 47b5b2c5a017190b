//! The operation model as Rust code: an expression that rebuilds each
//! `charon::pldoc::Operation` from `'static` text, so the compiled program needs no
//! PlDoc parsing.

use charon_pldoc::{Arg, Determinism, Location, Mode, Operation, Type};
use proc_macro2::TokenStream;
use quote::quote;

/// `::charon::__private::pldoc`.
fn pldoc() -> TokenStream {
    quote!(::charon::__private::pldoc)
}

fn text(s: &str) -> TokenStream {
    quote!(::std::borrow::Cow::Borrowed(#s))
}

/// An expression of type `charon::pldoc::Type`.
pub(crate) fn ty(t: &Type) -> TokenStream {
    let p = pldoc();
    match t {
        Type::Atom => quote!(#p::Type::Atom),
        Type::String => quote!(#p::Type::String),
        Type::Int => quote!(#p::Type::Int),
        Type::Float => quote!(#p::Type::Float),
        Type::Number => quote!(#p::Type::Number),
        Type::Bool => quote!(#p::Type::Bool),
        Type::Any => quote!(#p::Type::Any),
        Type::List(inner) => {
            let inner = ty(inner);
            quote!(#p::Type::List(::std::boxed::Box::new(#inner)))
        }
    }
}

fn determinism(d: Determinism) -> TokenStream {
    let p = pldoc();
    match d {
        Determinism::Det => quote!(#p::Determinism::Det),
        Determinism::Semidet => quote!(#p::Determinism::Semidet),
        Determinism::Nondet => quote!(#p::Determinism::Nondet),
        Determinism::Multi => quote!(#p::Determinism::Multi),
        Determinism::Failure => quote!(#p::Determinism::Failure),
        Determinism::Undeclared => quote!(#p::Determinism::Undeclared),
    }
}

fn mode(m: Mode) -> TokenStream {
    let p = pldoc();
    match m {
        Mode::In => quote!(#p::Mode::In),
        Mode::Out => quote!(#p::Mode::Out),
        Mode::Other(s) => quote!(#p::Mode::Other(#s)),
    }
}

fn arg(a: &Arg) -> TokenStream {
    let p = pldoc();
    let name = text(&a.name);
    let mode = mode(a.mode);
    let ty = ty(&a.ty);
    let doc = match &a.doc {
        Some(d) => {
            let d = text(d);
            quote!(::core::option::Option::Some(#d))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(#p::Arg { name: #name, mode: #mode, ty: #ty, doc: #doc })
}

fn location(l: &Location) -> TokenStream {
    let p = pldoc();
    let file = text(&l.file);
    let (line, column, offset) = (l.line, l.column, l.offset);
    quote!(#p::Location { file: #file, line: #line, column: #column, offset: #offset })
}

/// An expression of type `charon::pldoc::Operation`.
pub(crate) fn operation(op: &Operation) -> TokenStream {
    let p = pldoc();
    let name = text(&op.name);
    let predicate = text(&op.predicate);
    let args = op.args.iter().map(arg);
    let determinism = determinism(op.determinism);
    let description = text(&op.description);
    let location = location(&op.location);
    quote!(#p::Operation {
        name: #name,
        predicate: #predicate,
        args: ::std::vec![#(#args),*],
        determinism: #determinism,
        description: #description,
        location: #location,
    })
}
