use clap::Parser;

/// Thousands of moving boxes and disks over five switchable spatial indexes (lore-broadphase).
#[derive(Parser, Debug)]
#[command(name = "lore-swarm", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match lore_render::run(vec![lore_swarm::demo()], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-swarm: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
