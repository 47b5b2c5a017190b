charon::knowledge_base!(Kb "kbs/all.pl");

fn main() {}
