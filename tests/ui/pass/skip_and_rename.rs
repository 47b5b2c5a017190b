//! `@charon skip` leaves a documented helper out; `@charon name` exposes a predicate
//! under another name (the method, the route, the tool).

charon::knowledge_base!("kbs/skip_and_rename.pl");

async fn both(kb: &SkipAndRename) -> Result<(i64, i64), charon::CallError> {
    Ok((kb.dup(2).await?, kb.dup_times(2, 3).await?))
}

fn main() {
    let _ = both;
    let names: Vec<&str> = SkipAndRename::operations()
        .iter()
        .map(|op| op.name.as_ref())
        .collect();
    assert_eq!(names, ["dup", "dup_times"]);
    assert_eq!(SkipAndRename::operations()[1].predicate, "dup");
}
