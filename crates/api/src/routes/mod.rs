//! Handlers, one module per area; each handler parses, calls one domain function, shapes JSON.

pub mod account;
pub mod auth;
pub mod discover;
pub mod federation;
pub mod health;
pub mod media;
pub mod moderation;
pub mod notifications;
pub mod passkeys;
pub mod playlists;
pub mod posts;
pub mod profiles;
pub mod push;
pub mod suspensions;

/// Every handler, registered once: actix routes them and the OpenAPI document lists them.
pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(health::healthz)
        .service(health::readyz)
        .configure(auth::configure)
        .configure(account::configure)
        .configure(passkeys::configure)
        .configure(push::configure)
        .configure(profiles::configure)
        .configure(posts::configure)
        .configure(playlists::configure)
        .service(discover::discover)
        .configure(notifications::configure)
        .configure(moderation::configure)
        .configure(suspensions::configure)
        .configure(federation::configure_admin)
        .service(media::default_avatar)
        .service(media::media);
}

/// What a search box sent (`query`, `q`): absent is empty; a NUL character is refused (400), as
/// in every other text a person sends.
pub fn search_text(raw: Option<&str>) -> Result<&str, crate::error::ApiError> {
    let text = raw.unwrap_or_default();
    if text.contains('\0') {
        return Err(crate::error::ApiError::invalid("Search text cannot contain a NUL character"));
    }
    Ok(text)
}
