use clap::Parser;

/// Heap policies side by side on one allocation trace (lore-allocators).
#[derive(Parser, Debug)]
#[command(name = "lore-alloc", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match lore_render::run(vec![lore_alloc::demo()], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-alloc: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
