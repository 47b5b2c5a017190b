//! The scanner and the mode-line parser take any text without panicking: a knowledge
//! base that is not even Prolog gets a report, never a crash.

use proptest::prelude::*;

fn prologish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("%! ".to_string()),
        Just("/** ".to_string()),
        Just("*/".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("0'".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just(". ".to_string()),
        Just("\n".to_string()),
        Just(" is det".to_string()),
        Just("+X:list(".to_string()),
        Just(":- ".to_string()),
        Just("-->".to_string()),
        Just("\\".to_string()),
        "[a-zA-Z_0-9 ,]{0,8}",
        any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn analyse_never_panics_on_prologish_text(src in prologish()) {
        let _ = charon_pldoc::syntax_errors("fuzz.pl", &src);
        let _ = charon_pldoc::loaded_files(&src);
        let report = charon_pldoc::analyse("fuzz.pl", &src);
        for op in &report.operations {
            prop_assert!(charon_pldoc::is_valid_tool_name(&op.name));
            let _ = charon_pldoc::schema::response_schema(op);
        }
    }

    #[test]
    fn analyse_never_panics_on_any_text(src in any::<String>()) {
        let _ = charon_pldoc::syntax_errors("fuzz.pl", &src);
        let _ = charon_pldoc::analyse("fuzz.pl", &src);
    }
}
