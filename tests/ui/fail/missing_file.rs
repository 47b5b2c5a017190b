charon::knowledge_base!("kbs/no_such_file.pl");

fn main() {}
