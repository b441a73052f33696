//! The test OpenID Connect provider as a program, for the browser tests:
//! `cargo run -p api --example oidc_provider` with OIDC_TEST_PORT, OIDC_TEST_CLIENT_ID,
//! OIDC_TEST_CLIENT_SECRET, OIDC_TEST_EMAIL, OIDC_TEST_NAME and OIDC_TEST_SUB.

#[path = "../tests/support/oidc_provider.rs"]
mod oidc_provider;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

#[tokio::main]
async fn main() {
    let port = env("OIDC_TEST_PORT", "0").parse().unwrap_or(0);
    let identity = oidc_provider::Identity {
        sub: env("OIDC_TEST_SUB", "google-subject-1"),
        email: env("OIDC_TEST_EMAIL", "gina@example.com"),
        name: env("OIDC_TEST_NAME", "Gina Google"),
        email_verified: true,
    };
    let provider = oidc_provider::Provider::start(
        port,
        &env("OIDC_TEST_CLIENT_ID", "selfsound-test"),
        &env("OIDC_TEST_CLIENT_SECRET", "test-secret"),
        identity,
    );
    println!("OIDC test provider at {}", provider.issuer);
    let _ = tokio::signal::ctrl_c().await;
    provider.stop().await;
}
