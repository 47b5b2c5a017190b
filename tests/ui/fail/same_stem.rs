// Two knowledge bases whose files have the same stem make the same type.
charon::knowledge_base!("kbs/clinic/meds.pl");
charon::knowledge_base!("kbs/pharmacy/meds.pl");

fn main() {}
