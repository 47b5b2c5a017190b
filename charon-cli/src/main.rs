//! The `charon` binary: parses arguments and calls the library.

use std::process::ExitCode;

use clap::Parser;

mod call;
mod cli;
mod reason;

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
