//! The builtins by what they do to the state: free of side effects, output,
//! answers that vary, files loaded, state Charon cannot copy between workers.

/// Whether `name/arity` is a builtin on one of the lists below.
pub(super) fn is_builtin(name: &str, arity: usize) -> bool {
    let na = (name, arity);
    PURE.contains(&na) || OUTPUT.contains(&na) || VOLATILE.contains(&na) || STATEFUL.contains(&na)
}

/// Builtins and library predicates known to have no effect beyond their answer
/// (meta-predicates are handled above, by their goal arguments).
#[rustfmt::skip]
pub(super) const PURE: &[(&str, usize)] = &[
    // Control and errors.
    ("true", 0), ("fail", 0), ("false", 0), ("!", 0), ("throw", 1),
    ("must_be", 2), ("can_be", 2), ("type_error", 2), ("domain_error", 2),
    ("instantiation_error", 1), ("existence_error", 2), ("permission_error", 3),
    ("representation_error", 1), ("resource_error", 1),
    // Unification, comparison, arithmetic.
    ("=", 2), ("\\=", 2), ("==", 2), ("\\==", 2), ("@<", 2), ("@>", 2), ("@=<", 2),
    ("@>=", 2), ("compare", 3), ("unify_with_occurs_check", 2), ("dif", 2), ("is", 2),
    ("=:=", 2), ("=\\=", 2), ("<", 2), (">", 2), ("=<", 2), (">=", 2), ("succ", 2),
    ("plus", 3), ("between", 3), ("numlist", 3),
    // Type checks and term inspection.
    ("var", 1), ("nonvar", 1), ("atom", 1), ("number", 1), ("integer", 1), ("float", 1),
    ("atomic", 1), ("compound", 1), ("callable", 1), ("is_list", 1), ("ground", 1),
    ("functor", 3), ("arg", 3), ("=..", 2), ("copy_term", 2), ("term_variables", 2),
    ("numbervars", 3),
    // Atoms, characters, numbers.
    ("atom_codes", 2), ("atom_chars", 2), ("char_code", 2), ("atom_length", 2),
    ("atom_concat", 3), ("sub_atom", 5), ("number_codes", 2), ("number_chars", 2),
    ("atom_number", 2), ("upcase_atom", 2), ("downcase_atom", 2), ("char_type", 2),
    ("code_type", 2), ("atomic_list_concat", 2), ("atomic_list_concat", 3),
    ("term_to_atom", 2), ("read_term_from_chars", 3), ("write_term_to_chars", 3),
    ("number_vars", 3),
    // Lists, sorting, pairs, ordered sets, association lists.
    ("member", 2), ("memberchk", 2), ("append", 2), ("append", 3), ("length", 2),
    ("reverse", 2), ("nth0", 3), ("nth1", 3), ("nth0", 4), ("nth1", 4), ("last", 2),
    ("msort", 2), ("sort", 2), ("sort", 4), ("keysort", 2), ("select", 3), ("selectchk", 3),
    ("select", 4), ("subtract", 3), ("delete", 3), ("exclude", 3), ("sum_list", 2),
    ("sumlist", 2), ("max_list", 2), ("min_list", 2), ("list_max", 2), ("list_min", 2),
    ("list_to_set", 2), ("permutation", 2), ("same_length", 2), ("transpose", 2),
    ("pairs_keys_values", 3), ("pairs_keys", 2), ("pairs_values", 2), ("max_member", 2),
    ("min_member", 2), ("nextto", 3), ("list_to_ord_set", 2), ("ord_union", 3),
    ("ord_subtract", 3), ("ord_memberchk", 2), ("ord_intersection", 3), ("ord_subset", 2),
    ("ord_del_element", 3), ("ord_add_element", 3), ("list_to_assoc", 2), ("put_assoc", 4),
    ("get_assoc", 3), ("empty_assoc", 1), ("assoc_to_list", 2), ("assoc_to_keys", 2),
    ("assoc_to_values", 2),
    // DCG helpers (with their two list arguments).
    ("seq", 3), ("seqq", 3), ("...", 2),
    // Constraints.
    ("#=", 2), ("#\\=", 2), ("#<", 2), ("#>", 2), ("#=<", 2), ("#>=", 2), ("in", 2),
    ("ins", 2), ("label", 1), ("labeling", 2), ("#<==>", 2), ("#==>", 2), ("#<==", 2),
    ("#\\/", 2), ("#/\\", 2), ("#\\", 1), ("tuples_in", 2), ("all_different", 1),
    ("all_distinct", 1), ("sum", 3), ("zcompare", 3), ("fd_dom", 2), ("fd_inf", 2),
    ("fd_sup", 2), ("fd_size", 2),
    // Reading the state.
    ("clause", 2), ("current_predicate", 1), ("predicate_property", 2), ("current_op", 3),
    ("bb_get", 2), ("current_prolog_flag", 2),
];

/// Builtins that print (the output goes to the log, never to the caller).
#[rustfmt::skip]
pub(super) const OUTPUT: &[(&str, usize)] = &[
    ("write", 1), ("print", 1), ("writeq", 1), ("write_canonical", 1), ("write_term", 2),
    ("nl", 0), ("tab", 1), ("put_char", 1), ("format", 1), ("format", 2),
    ("portray_clause", 1), ("listing", 1), ("write", 2), ("writeq", 2), ("print", 2),
    ("write_canonical", 2), ("write_term", 3), ("nl", 1), ("tab", 2), ("put_char", 2),
    ("format", 3), ("portray_clause", 2), ("flush_output", 0), ("flush_output", 1),
];

/// Builtins whose answers vary between calls with the same arguments.
#[rustfmt::skip]
pub(super) const VOLATILE: &[(&str, usize)] = &[
    ("random", 1), ("random_between", 3), ("random_member", 2), ("random_permutation", 2),
    ("random_integer", 3), ("maybe", 0), ("get_time", 1), ("current_time", 1),
    ("statistics", 2), ("sleep", 1),
];

/// The builtins among [`STATEFUL`] that load files.
pub(super) const LOADS: &[(&str, usize)] = &[
    ("consult", 1),
    ("use_module", 1),
    ("use_module", 2),
    ("ensure_loaded", 1),
    ("load_files", 2),
];

/// Builtins that change state Charon does not copy between workers.
#[rustfmt::skip]
pub(super) const STATEFUL: &[(&str, usize)] = &[
    ("op", 3), ("set_prolog_flag", 2), ("set_random", 1), ("b_setval", 2), ("nb_setval", 2),
    ("bb_b_put", 2), ("abolish", 1), ("erase", 1), ("consult", 1), ("use_module", 1),
    ("use_module", 2), ("ensure_loaded", 1), ("load_files", 2), ("bb_put", 2),
];
