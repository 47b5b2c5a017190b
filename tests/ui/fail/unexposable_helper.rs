charon::knowledge_base!("kbs/unexposable_helper.pl");

fn main() {}
