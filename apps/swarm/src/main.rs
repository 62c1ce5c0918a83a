use clap::Parser;

/// Thousands of moving boxes and disks over five switchable spatial indexes (lore-broadphase).
#[derive(Parser, Debug)]
#[command(name = "lore-swarm", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
    /// The index to start on: brute, sweep, grid, hash or tree (keys 1-5 switch in a window).
    #[arg(long, default_value = "grid")]
    index: String,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let Some(kind) = lore_swarm::IndexKind::from_name(&cli.index) else {
        eprintln!("lore-swarm: unknown index {:?} (brute, sweep, grid, hash or tree)", cli.index);
        return std::process::ExitCode::FAILURE;
    };
    match lore_render::run(vec![lore_swarm::demo_with(kind)], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-swarm: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
