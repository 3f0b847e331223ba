//! `modex`: the command line of the engine. Thin by design: the arguments are declared in `cli/`,
//! which also maps each command to library calls (`cli/info.rs`, `cli/render.rs`, ...); the demo's
//! runs (window, headless, networked, soak, bench) are `demo/`; everything else is in the engine
//! crates.

mod cli;
mod demo;

use clap::Parser;

fn main() {
    // `modex bench` runs each peer and thread count in a child process: this binary again, with
    // its job in the environment. A child runs the job and ends here.
    if let Some(code) = modex_bench::serve_if_child() {
        std::process::exit(code);
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    let cli = cli::Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: cli::Cli) -> anyhow::Result<()> {
    match cli.command {
        None => demo::run(&cli.demo),
        Some(cli::Command::Demo(a)) => demo::run(&a),
        Some(cli::Command::Info(a)) => cli::info::run(&a),
        Some(cli::Command::View(a)) => cli::view::run(&a),
        Some(cli::Command::Render(a)) => cli::render::run(&a),
        Some(cli::Command::Play(a)) => cli::play::run(&a),
        Some(cli::Command::Export(a)) => cli::export::run(&a),
        Some(cli::Command::Net(a)) => cli::net::run(&a),
        Some(cli::Command::Bench(a)) => cli::bench::run(&a),
    }
}
