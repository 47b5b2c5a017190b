charon::knowledge_base!("kbs/bad_mode_line.pl");

fn main() {}
