//! `selfsound [serve|migrate]`: serve the app (default), or only bring the database up to date.

use std::io::IsTerminal;
use std::net::TcpListener;
use std::process::ExitCode;

use api::config::Config;
use tracing_subscriber::EnvFilter;

const USAGE: &str = "usage: selfsound [serve|migrate|seed]\n\
  serve    run migrations, then serve the API and the web app (default)\n\
  migrate  run migrations and exit\n\
  seed [--users N] [--posts M]\n\
           fill the database with made-up people and posts (benchmarks, demos)\n\
Configuration comes from the environment; see README.md.";

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_ansi(std::io::stdout().is_terminal())
        .init();
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".into());
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let result = match command.as_str() {
        "serve" => serve(config),
        "migrate" => migrate(&config),
        "seed" => {
            let args: Vec<String> = std::env::args().skip(2).collect();
            match api::seed::SeedOptions::parse(&args) {
                Ok(options) => seed(config, &options),
                Err(e) => {
                    eprintln!("{e}\n{USAGE}");
                    return ExitCode::from(2);
                }
            }
        }
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => {
            eprintln!("unknown command {other:?}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("selfsound: {e}");
            ExitCode::FAILURE
        }
    }
}

fn migrate(config: &Config) -> Result<(), api::server::StartError> {
    std::fs::create_dir_all(&config.data_dir)?;
    db::Db::connect(&config.database_url, &db::PoolOptions::default())?;
    tracing::info!("database is up to date");
    Ok(())
}

fn seed(config: Config, options: &api::seed::SeedOptions) -> Result<(), api::server::StartError> {
    actix_web::rt::System::new().block_on(async move {
        let state = api::server::state(config)?;
        api::seed::run(&state.db, &state.storage, options).await.map_err(api::server::StartError::Setup)
    })
}

fn serve(config: Config) -> Result<(), api::server::StartError> {
    actix_web::rt::System::new().block_on(async move {
        let bind = config.bind;
        let listener = TcpListener::bind(bind)?;
        let public_url = config.public_url.clone();
        let state = api::server::state(config)?;
        tracing::info!(%bind, %public_url, database = ?state.db.backend(), "SelfSound is serving; open {public_url}/app/");
        api::server::run(state, listener)?.await?;
        Ok(())
    })
}
