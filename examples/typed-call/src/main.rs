//! Calling a knowledge base as typed Rust functions, from a plain (synchronous) `main`.
//!
//! `knowledge_base!` reads `kb/meds.pl` (a link to `examples/meds.pl`) at compile time: the program gets a type
//! `Meds` with one method per documented predicate, and carries the file's text, so it
//! needs no file at run time.
//!
//! ```sh
//! cargo run --release -p charon-example-typed -- 82 diazepam doxylamine warfarin aspirin
//! ```

use std::process::ExitCode;

// Path relative to this crate's Cargo.toml; the type is named after the file.
charon::knowledge_base!("kb/meds.pl");

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("charon-example-typed: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let age: i64 = match args.next() {
        Some(age) => age.parse().map_err(|_| format!("`{age}` is not an age"))?,
        None => 82,
    };
    let mut drugs: Vec<String> = args.collect();
    if drugs.is_empty() {
        drugs = ["diazepam", "doxylamine", "warfarin", "aspirin"]
            .map(String::from)
            .to_vec();
    }

    let meds = Meds::load()?;
    let kb = meds.blocking();

    // `nondet` with two outputs: a Vec of a generated struct.
    for hit in kb.pim_check(age, &drugs)? {
        println!("flagged {}: {}", hit.substance, hit.reason);
    }
    // `det` with two outputs: the struct itself.
    let summary = kb.screening_summary(age, &drugs)?;
    println!(
        "{} flagged ({}), {} interacting pair(s)",
        summary.flagged.len(),
        summary.flagged.join(", "),
        summary.interactions
    );
    // `semidet` with one output: an Option.
    for (i, first) in drugs.iter().enumerate() {
        for second in &drugs[i + 1..] {
            if let Some(severity) = kb.get_interaction(first, second)? {
                println!("interaction {first} + {second}: {severity}");
            }
        }
    }
    // `semidet` without outputs: a bool.
    println!("criteria loaded: {}", kb.ready()?);
    Ok(())
}
