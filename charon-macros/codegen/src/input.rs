//! The macro input: `"kb.pl"`, or `[vis] Name = "kb.pl"`.

use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Visibility};

/// What the macro was given.
pub(crate) struct Input {
    /// Visibility of the generated items (`pub` unless given).
    pub vis: Visibility,
    /// The type name, if given explicitly.
    pub name: Option<Ident>,
    /// The path literal.
    pub path: LitStr,
}

impl Parse for Input {
    fn parse(stream: ParseStream<'_>) -> syn::Result<Self> {
        let input = if stream.peek(LitStr) {
            Input {
                vis: syn::parse_quote!(pub),
                name: None,
                path: stream.parse()?,
            }
        } else {
            let vis: Visibility = stream.parse()?;
            let vis = match vis {
                Visibility::Inherited => syn::parse_quote!(pub),
                other => other,
            };
            let name: Ident = stream.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected `\"path/to/kb.pl\"` or `Name = \"path/to/kb.pl\"`",
                )
            })?;
            stream.parse::<Token![=]>()?;
            Input {
                vis,
                name: Some(name),
                path: stream.parse()?,
            }
        };
        let _ = stream.parse::<Option<Token![,]>>()?;
        if !stream.is_empty() {
            return Err(stream.error(
                "unexpected input after the path; write `knowledge_base!(\"kb.pl\")` or `knowledge_base!(Name = \"kb.pl\")`",
            ));
        }
        Ok(input)
    }
}
