charon::knowledge_base!("kbs/syntax_error.pl");

fn main() {}
