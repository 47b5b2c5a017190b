charon::knowledge_base!("kbs/unexposable_mode.pl");

fn main() {}
