use clap::Parser;

/// The lore-pixel-collide demo: pixel-perfect collisions on the GPU, checked against the CPU.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match lore_render::run(vec![lore_pixels::demo()], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-pixels: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
