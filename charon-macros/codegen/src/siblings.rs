//! Two `knowledge_base!` calls in one module that would make the same type (two
//! `meds.pl` in different directories): rustc reports every generated item twice
//! (E0428) and says nothing of the cause, so the macro reads the file it is called
//! from and says which calls collide and how to name one.

use std::path::Path;
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use crate::input::Input;
use crate::plan::type_name_for;

/// One `knowledge_base!` call found in a file.
struct Call {
    /// The scope it is in: every brace group (module, function body) is one.
    scope: usize,
    /// The type it makes, the path it was given, and whether the type was named.
    type_name: String,
    path: String,
    named: bool,
}

/// The hint, if the call of `input` is one of two or more calls in one scope of
/// `file` that make the same type. It is only given when such a pair exists: the
/// build fails then anyway, so the hint never turns a good build bad.
pub(crate) fn collision(input: &Input, file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let tokens = TokenStream::from_str(&text).ok()?;
    let mut calls = Vec::new();
    let mut scopes = 0;
    walk(tokens, 0, &mut scopes, &mut calls);
    let ours = type_name_for(input)?;
    let our_path = input.path.value();
    let scope = calls
        .iter()
        .filter(|c| c.type_name == ours && c.path == our_path && c.named == input.name.is_some())
        .map(|c| c.scope)
        .find(|&s| {
            calls
                .iter()
                .filter(|c| c.scope == s && c.type_name == ours)
                .count()
                > 1
        })?;
    let paths: Vec<String> = calls
        .iter()
        .filter(|c| c.scope == scope && c.type_name == ours)
        .map(|c| format!("`{}`", c.path))
        .collect();
    let other = calls
        .iter()
        .find(|c| c.scope == scope && c.type_name == ours && c.path != our_path)
        .map_or(our_path.clone(), |c| c.path.clone());
    Some(format!(
        "{} `knowledge_base!` calls in this module make the type `{ours}` (from {}): name one, e.g. `knowledge_base!(Other{ours} = \"{other}\")`",
        paths.len(),
        paths.join(" and ")
    ))
}

/// Whether the item that ends with `before` (the tokens up to a call's macro name)
/// has a `#[cfg(…)]` or `#[cfg_attr(…)]` attribute.
fn conditional(before: &[TokenTree]) -> bool {
    // Back over the macro path (`charon::`), then over the attributes.
    let mut i = before.len();
    while i > 0
        && matches!(&before[i - 1], TokenTree::Ident(_) | TokenTree::Punct(_))
        && !matches!(&before[i - 1], TokenTree::Punct(p) if p.as_char() == ';' || p.as_char() == '#')
    {
        i -= 1;
    }
    while i >= 2 {
        let (TokenTree::Punct(hash), TokenTree::Group(attr)) = (&before[i - 2], &before[i - 1])
        else {
            break;
        };
        if hash.as_char() != '#' || attr.delimiter() != Delimiter::Bracket {
            break;
        }
        if matches!(attr.stream().into_iter().next(), Some(TokenTree::Ident(id)) if id == "cfg" || id == "cfg_attr")
        {
            return true;
        }
        i -= 2;
    }
    false
}

fn walk(tokens: TokenStream, scope: usize, scopes: &mut usize, calls: &mut Vec<Call>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        let TokenTree::Group(group) = tree else {
            continue;
        };
        let is_call = i >= 2
            && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
            && matches!(&trees[i - 2], TokenTree::Ident(id) if id == "knowledge_base");
        // A call under `#[cfg(…)]` may be one of alternatives that never meet.
        if is_call && !conditional(&trees[..i - 2]) {
            if let Ok(input) = syn::parse2::<Input>(group.stream())
                && let Some(type_name) = type_name_for(&input)
            {
                calls.push(Call {
                    scope,
                    type_name,
                    path: input.path.value(),
                    named: input.name.is_some(),
                });
            }
        } else if group.delimiter() == Delimiter::Brace {
            *scopes += 1;
            let inner = *scopes;
            walk(group.stream(), inner, scopes, calls);
        } else {
            walk(group.stream(), scope, scopes, calls);
        }
    }
}
