// Three PlDoc mistakes, three errors; the good operation still has its method, so
// the use below adds no error of its own.
charon::knowledge_base!("kbs/many_mistakes.pl");

async fn use_it(kb: &ManyMistakes) -> Result<i64, charon::CallError> {
    kb.good(1).await
}

fn main() {}
