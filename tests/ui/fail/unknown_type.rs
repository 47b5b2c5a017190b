charon::knowledge_base!("kbs/unknown_type.pl");

fn main() {}
