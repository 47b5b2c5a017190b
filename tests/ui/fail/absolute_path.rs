charon::knowledge_base!("/etc/kb.pl");

fn main() {}
