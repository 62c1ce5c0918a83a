use clap::Parser;

/// A disk and a box sliding through loose segments and tiles (lore-collide2d).
#[derive(Parser, Debug)]
#[command(name = "lore-slide", version, about)]
struct Cli {
    #[command(flatten)]
    run: lore_render::RunArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match lore_render::run(vec![lore_slide::demo()], &cli.run) {
        Ok(_) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lore-slide: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
