//! Two knowledge bases in one crate, one of them named explicitly, in a module that
//! shadows the prelude and `serde`; the type can be stored in a struct and in axum state.

#![allow(dead_code, non_camel_case_types)]

mod shadowing {
    struct Result;
    struct Option;
    struct String;
    struct Vec;
    struct Box;
    mod serde {}
    mod core {}
    mod std {}
    struct Arc;
    #[allow(non_camel_case_types)]
    struct i64;
    #[allow(non_camel_case_types)]
    struct str;

    charon::knowledge_base!("kbs/all.pl");
    charon::knowledge_base!(pub(crate) Catalogue = "kbs/many_mistakes_fixed.pl");
}

struct AppState {
    all: shadowing::All,
    catalogue: shadowing::Catalogue,
}

fn router(state: shadowing::All) -> axum::Router {
    axum::Router::new().with_state(state)
}

fn in_a_function_body() -> usize {
    charon::knowledge_base!(Local = "kbs/many_mistakes_fixed.pl");
    Local::operations().len()
}

fn main() {
    assert_eq!(in_a_function_body(), 1);
    assert_eq!(shadowing::All::operations().len(), 14);
    assert_eq!(shadowing::Catalogue::operations().len(), 1);
}
