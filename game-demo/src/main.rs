//! `modex`: the command line of the engine. Thin by design: argument parsing here, everything else in
//! the engine crates and in one module per format family under `formats/`.

mod bench;
mod cli;
mod cutscene;
mod demo;
mod formats;
mod net;
mod plugins;

use clap::Parser;

fn main() {
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
        Some(cli::Command::Info(a)) => formats::info(&a),
        Some(cli::Command::View(a)) => formats::view(&a),
        Some(cli::Command::Render(a)) => formats::render(&a),
        Some(cli::Command::Play(a)) => formats::play(&a),
        Some(cli::Command::Export(a)) => formats::export(&a),
        Some(cli::Command::Net(a)) => net::run(&a),
    }
}
