//! The `charon` binary: parses arguments and calls the library.
//!
//! Layers, each importing only from those below it: `cli` (the command line; its
//! `serve` runs the servers, its `commands` the others) → `call`, `reason` and
//! `reload` (`charon call`, the reasoning commands, hot reload) → `logging` (the
//! set-up every command shares).

use std::process::ExitCode;

use clap::Parser;

mod call;
mod cli;
mod logging;
mod reason;
mod reload;

// The server and its engine workers (the same binary) allocate on every call;
// mimalloc spends less time there than the system allocator (see BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Gives the operating system back the memory freed while loading. mimalloc returns
/// freed pages only during later allocations, and a server waiting for its first
/// request makes none: after loading a million facts the server process held 59 MB,
/// and 19 MB once this returned them.
pub(crate) fn return_freed_memory() {
    // SAFETY: mi_collect takes no pointer; it walks mimalloc's own heaps, which is
    // what it is for, from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

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
