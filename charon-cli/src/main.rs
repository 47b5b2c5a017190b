//! The `charon` binary: parses arguments and calls the library.

use std::process::ExitCode;

use clap::Parser;

mod call;
mod cli;
mod reason;
mod reload;

// The server and its engine workers (the same binary) allocate on every call;
// mimalloc spends less time there than the system allocator (see BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("charon: {err:#}");
            ExitCode::FAILURE
        }
    }
}
