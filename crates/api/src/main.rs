//! `selfsound [serve|migrate|seed|admin|openapi|backup|restore|verify|jobs]`: the command line, read
//! with clap. Each subcommand is a few lines here over the library (`api::server`, `api::seed`,
//! `api::backup`); settings come from the environment through `Config`, and the flags below
//! stand in for the variables of the same name.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;

use api::config::Config;
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "selfsound",
    version,
    propagate_version = true,
    about = "SelfSound: where artists, learners and listeners share music. The server and web app, in one binary",
    after_help = "Every setting is an environment variable (README.md, \"Configuration\"); the flags above \
                  take the place of the variables they name."
)]
struct Cli {
    #[command(flatten)]
    settings: Settings,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The most used settings as flags; each one wins over its environment variable. Their values
/// are not shown in the help (a database URL may carry a password).
#[derive(Args)]
#[command(next_help_heading = "Settings (flags or environment)")]
struct Settings {
    /// The data folder: database file, media, mail folder, generated secrets [default: ./data]
    #[arg(long, global = true, value_name = "DIR", env = "SELFSOUND_DATA_DIR", hide_env_values = true)]
    data_dir: Option<String>,
    /// A SQLite file path, or postgres://user@host/db [default: <data dir>/selfsound.sqlite3]
    #[arg(long, global = true, value_name = "URL", env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// The address to listen on [default: 127.0.0.1:8080]
    #[arg(long, global = true, value_name = "ADDR", env = "SELFSOUND_BIND", hide_env_values = true)]
    bind: Option<String>,
    /// Our address as browsers reach it [default: http://<bind>]
    #[arg(long, global = true, value_name = "URL", env = "SELFSOUND_PUBLIC_URL", hide_env_values = true)]
    public_url: Option<String>,
}

impl Settings {
    /// The flag standing in for the environment variable `name`, if given.
    fn flag(&self, name: &str) -> Option<String> {
        match name {
            "SELFSOUND_DATA_DIR" => self.data_dir.clone(),
            "DATABASE_URL" => self.database_url.clone(),
            "SELFSOUND_BIND" => self.bind.clone(),
            "SELFSOUND_PUBLIC_URL" => self.public_url.clone(),
            _ => None,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Run migrations, then serve the API and the web app (the default)
    Serve,
    /// Bring the database up to date and exit
    Migrate,
    /// Fill the database with made-up people, listening, posts, likes and comments (demos,
    /// benchmarks); every seeded account signs in with the password Seeded#Sound1
    Seed(api::seed::SeedOptions),
    /// Give or take away the admin role
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Print the API's OpenAPI document (what /openapi.json serves) and exit; needs no settings
    Openapi,
    /// Copy an embedded installation (the SQLite file and the media folder) into DIR while it
    /// serves
    #[command(long_about = "Copy an embedded installation (the SQLite file and the media folder) into DIR \
        while it serves: a snapshot of the database first (VACUUM INTO), then the media files, with a \
        manifest.json of row counts and SHA-256 checksums. No row of the copy points at a missing object. \
        PostgreSQL and S3 installations are refused: back them up with pg_dump and a bucket sync \
        (docs/operations.md, \"Backups\").")]
    Backup {
        /// A folder that is empty or does not exist yet
        dir: PathBuf,
    },
    /// Bring a backup made by `selfsound backup` into an empty data folder, checking its
    /// checksums
    Restore {
        /// The backup's folder (the one holding manifest.json)
        dir: PathBuf,
    },
    /// Check that every stored object a row points at exists (media folder or S3 bucket); exit
    /// status 1 names the missing ones
    Verify,
    /// List the background jobs (running, then queued in the order they will run, then failed),
    /// or queue failed ones again
    Jobs {
        #[command(subcommand)]
        command: Option<JobsCommand>,
    },
}

#[derive(Subcommand)]
enum JobsCommand {
    /// List them (the default): at most 200, with the queue's figures
    List,
    /// Queue a failed job again (attempts from zero), or every failed job
    Retry {
        /// The job's id, as the list shows it; without one, every failed job
        id: Option<String>,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Give the admin role to the account with this e-mail address (verified accounts only)
    Grant {
        /// The account's e-mail address
        email: String,
    },
    /// Take the admin role away from the account with this e-mail address
    Revoke {
        /// The account's e-mail address
        email: String,
    },
}

fn main() -> ExitCode {
    api::logging::init();
    // Usage errors exit with status 2, --help and --version with 0 (clap's own).
    let cli = Cli::parse();
    let result = match cli.command.unwrap_or(Command::Serve) {
        // Needs no configuration: the document is made from the handlers alone.
        Command::Openapi => openapi(),
        command => match Config::from_env_with(|name| cli.settings.flag(name)) {
            Ok(config) => run(command, config),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("selfsound: {e}");
            ExitCode::FAILURE
        }
    }
}

type Failure = Box<dyn std::error::Error>;

fn run(command: Command, config: Config) -> Result<(), Failure> {
    match command {
        Command::Serve => Ok(serve(config)?),
        Command::Migrate => Ok(migrate(&config)?),
        Command::Seed(options) => Ok(seed(config, &options)?),
        Command::Admin(AdminCommand::Grant { email }) => Ok(admin(&config, true, &email)?),
        Command::Admin(AdminCommand::Revoke { email }) => Ok(admin(&config, false, &email)?),
        Command::Openapi => openapi(),
        Command::Backup { dir } => backup(&config, &dir),
        Command::Restore { dir } => restore(&config, &dir),
        Command::Verify => verify(&config),
        Command::Jobs { command } => jobs(&config, command.unwrap_or(JobsCommand::List)),
    }
}

fn openapi() -> Result<(), Failure> {
    use std::io::Write;
    let json = api::openapi::document().to_pretty_json()?;
    writeln!(std::io::stdout().lock(), "{json}")?;
    Ok(())
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn backup(config: &Config, dir: &std::path::Path) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let manifest = operations::backup::backup(&config.installation(), dir)?;
    let bytes: u64 = manifest.files.iter().map(|f| f.size).sum();
    let rows: i64 = manifest.row_counts.values().sum();
    println!(
        "backed up {rows} rows and {} media files ({}) into {} in {:.1} s ({} database snapshot{})",
        manifest.files.len() - 1,
        megabytes(bytes),
        dir.display(),
        started.elapsed().as_secs_f64(),
        manifest.snapshots,
        if manifest.snapshots == 1 { "" } else { "s" },
    );
    if !manifest.missing.is_empty() {
        println!(
            "the installation itself is missing {} objects its rows point at (listed under \"missing\" in {}):",
            manifest.missing.len(),
            operations::backup::MANIFEST
        );
        for key in &manifest.missing {
            println!("  {key}");
        }
    }
    Ok(())
}

fn restore(config: &Config, dir: &std::path::Path) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let restored = operations::backup::restore(&config.installation(), dir)?;
    let manifest = &restored.manifest;
    let bytes: u64 = manifest.files.iter().map(|f| f.size).sum();
    let signed = if restored.signature_checked {
        "signed with SELFSOUND_BACKUP_KEY"
    } else {
        "signature not checked: SELFSOUND_BACKUP_KEY is not set"
    };
    println!(
        "restored the backup of {} ({} files, {}, checksums match, {signed}) into {} in {:.1} s",
        manifest.created_at,
        manifest.files.len(),
        megabytes(bytes),
        config.data_dir.display(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "ended every session the backup held ({}): everyone signs in again (a session signed out since the \
         backup must not come back with it)",
        restored.sessions_ended
    );
    Ok(())
}

fn verify(config: &Config) -> Result<(), Failure> {
    let report = actix_web::rt::System::new().block_on(operations::backup::verify(&config.installation()))?;
    if report.missing.is_empty() {
        println!("all {} objects rows point at are in the {}", report.checked, report.store);
        return Ok(());
    }
    for (key, column) in &report.missing {
        println!("missing: {key} ({column})");
    }
    Err(format!(
        "{} of the {} objects rows point at are missing from the {}",
        report.missing.len(),
        report.checked,
        report.store
    )
    .into())
}

fn jobs(config: &Config, command: JobsCommand) -> Result<(), Failure> {
    use db::jobs;
    let db = db::Db::connect(&config.database_url, &db::PoolOptions { max_size: 1, ..Default::default() })?;
    if let JobsCommand::Retry { id } = command {
        let id = id.map(|raw| raw.parse::<values::JobId>().map_err(|_| format!("not a job id: {raw}"))).transpose()?;
        let n = db.write_blocking(move |c| jobs::retry(c, id).map_err(db::DbError::from))?;
        return match (id, n) {
            (Some(id), 0) => Err(format!("no failed job {id}").into()),
            (_, n) => {
                println!("queued again: {n} job{}", if n == 1 { "" } else { "s" });
                Ok(())
            }
        };
    }
    let mut conn = db.get()?;
    let f = jobs::figures(&mut conn)?;
    let oldest = if f.queued + f.running > 0 {
        format!("; the oldest was queued {:.0} s ago", f.oldest_seconds)
    } else {
        String::new()
    };
    println!("{} queued, {} running, {} failed{oldest}", f.queued, f.running, f.failed);
    let time = |t: chrono::NaiveDateTime| db::time::to_rfc3339(t);
    for j in jobs::list(&mut conn, 200)? {
        let mut line = format!("{:<20} {:<8} {:<17} {:<28} try {}", j.id, j.state, j.kind, j.subject, j.attempts);
        match j.state.as_str() {
            "running" => {
                line += &format!(
                    ", leased by {} until {}",
                    j.leased_by.unwrap_or_default(),
                    j.lease_until.map(time).unwrap_or_default()
                )
            }
            "queued" => line += &format!(", runs from {}", time(j.run_after)),
            _ => {}
        }
        if let Some(owner) = j.owner_id {
            line += &format!(", for {owner}");
        }
        if let Some(e) = j.last_error {
            line += &format!("\n{:<20} last error: {e}", "");
        }
        println!("{line}");
    }
    Ok(())
}

fn migrate(config: &Config) -> Result<(), api::server::StartError> {
    std::fs::create_dir_all(&config.data_dir)?;
    let db = db::Db::connect(&config.database_url, &db::PoolOptions::default())?;
    api::server::finish_migrations(&db)?;
    tracing::info!("database is up to date");
    Ok(())
}

/// Grants or revokes the admin role; the audit log names the command line as who did it.
fn admin(config: &Config, grant: bool, email: &str) -> Result<(), api::server::StartError> {
    std::fs::create_dir_all(&config.data_dir)?;
    let db = db::Db::connect(&config.database_url, &db::PoolOptions { max_size: 1, ..Default::default() })?;
    let address = values::Email::parse(email)
        .map_err(|_| api::server::StartError::Setup(format!("not an e-mail address: {email}")))?;
    let changed =
        db.write_blocking(|c| moderation::set_admin(c, &address, grant, "command line")).map_err(|e| match e {
            moderation::ModerationError::NotVerified(_) => api::server::StartError::Setup(format!(
                "{e}. Once its owner has opened the verification link, run this again (an address in \
                 ADMIN_EMAILS becomes an admin by itself at that moment)."
            )),
            e => api::server::StartError::Setup(e.to_string()),
        })?;
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
        let state = api::server::state(config).await?;
        api::seed::run(&state.db, &state.storage, options).await.map_err(api::server::StartError::Setup)
    })
}

fn serve(config: Config) -> Result<(), api::server::StartError> {
    actix_web::rt::System::new().block_on(async move {
        let bind = config.bind;
        let listener = TcpListener::bind(bind)?;
        let public_url = config.public_url.clone();
        let state = api::server::state(config).await?;
        tracing::info!(%bind, %public_url, database = ?state.db.backend(), "SelfSound is serving; open {public_url}/app/");
        api::server::run_until_signalled(state, listener)?.await?;
        Ok(())
    })
}
