charon::knowledge_base!("kbs/arity_mismatch.pl");

fn main() {}
