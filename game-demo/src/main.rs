//! `modex`: the command line of the engine. Thin by design: argument parsing here, everything else in
//! the engine crates and in one module per format family under `formats/`.

mod cli;
mod demo;

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
        Some(cli::Command::Info(a)) => cli::formats::info(&a),
        Some(cli::Command::View(a)) => cli::formats::view(&a),
        Some(cli::Command::Render(a)) => cli::formats::render(&a),
        Some(cli::Command::Play(a)) => cli::formats::play(&a),
        Some(cli::Command::Export(a)) => cli::formats::export(&a),
        Some(cli::Command::Net(a)) => cli::net::run(&a),
    }
}
