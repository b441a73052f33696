//! `selfsound [serve|migrate|seed|admin|openapi]`: serve the app (default), bring the database
//! up to date, fill it with made-up data, grant and revoke the admin role, or print the API's
//! OpenAPI document.

use std::io::IsTerminal;
use std::net::TcpListener;
use std::process::ExitCode;

use api::config::Config;
use tracing_subscriber::EnvFilter;

const USAGE: &str = "usage: selfsound [serve|migrate|seed|admin|openapi]\n\
  serve    run migrations, then serve the API and the web app (default)\n\
  migrate  run migrations and exit\n\
  seed [--users N] [--posts M]\n\
           fill the database with made-up people and posts (benchmarks, demos)\n\
  admin grant EMAIL | admin revoke EMAIL\n\
           give the account with this e-mail address the admin role (verified accounts\n\
           only), or take it away\n\
  openapi  print the API's OpenAPI document (what /openapi.json serves) and exit\n\
Configuration comes from the environment; see README.md.";

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_ansi(std::io::stdout().is_terminal())
        .init();
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".into());
    if command == "openapi" {
        // Needs no configuration: the document is made from the handlers alone.
        use std::io::Write;
        let printed = api::openapi::document()
            .to_pretty_json()
            .map_err(|e| e.to_string())
            .and_then(|json| writeln!(std::io::stdout().lock(), "{json}").map_err(|e| e.to_string()));
        return match printed {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("selfsound: {e}");
                ExitCode::FAILURE
            }
        };
    }
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
        "admin" => {
            let args: Vec<String> = std::env::args().skip(2).collect();
            match args.as_slice() {
                [verb, email] if verb == "grant" || verb == "revoke" => admin(&config, verb == "grant", email),
                _ => {
                    eprintln!("usage: selfsound admin grant EMAIL | selfsound admin revoke EMAIL");
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

/// Grants or revokes the admin role; the audit log names the command line as who did it.
fn admin(config: &Config, grant: bool, email: &str) -> Result<(), api::server::StartError> {
    std::fs::create_dir_all(&config.data_dir)?;
    let db = db::Db::connect(&config.database_url, &db::PoolOptions { max_size: 1, ..Default::default() })?;
    let address = values::Email::parse(email)
        .map_err(|_| api::server::StartError::Setup(format!("not an e-mail address: {email}")))?;
    let mut conn = db.get()?;
    let changed = db::write_tx(&mut conn, |c| moderation::set_admin(c, &address, grant, "command line")).map_err(
        |e| match e {
            moderation::ModerationError::NotVerified(_) => api::server::StartError::Setup(format!(
                "{e}. Once its owner has opened the verification link, run this again (an address in \
                 ADMIN_EMAILS becomes an admin by itself at that moment)."
            )),
            e => api::server::StartError::Setup(e.to_string()),
        },
    )?;
    let what = match (grant, changed) {
        (true, true) => "is an admin now",
        (true, false) => "was an admin already",
        (false, true) => "is no longer an admin",
        (false, false) => "was not an admin",
    };
    println!("{} {what}", address.as_str());
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
        api::server::run_until_signalled(state, listener)?.await?;
        Ok(())
    })
}
