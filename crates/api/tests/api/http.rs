//! What a client written from the spec alone, on its own origin, relies on (issue 6 §10), and
//! the OpenAPI document listing every answer a handler can give (§6).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{Options, PASSWORD, spawn_app, spawn_app_with};

const MUSICIAN: &str = "b361c6f9-9425-4548-8c07-cb408140c304";
const LEARNER: &str = "5ee121a6-b467-4ead-b3f7-00e1ce6097d5";

fn set_cookie(res: &reqwest::Response) -> String {
    res.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned()).collect::<Vec<_>>().join("\n")
}

async fn sign_in_sets_the_cookie_and_both_logouts_clear_it(db: TestDb) {
    let app = spawn_app(db).await;
    app.verified_user("Ada", "ada@example.com").await;
    let login = |app: &crate::common::TestApp| {
        app.client
            .post(format!("{}/authorization/logindefault", app.url))
            .json(&json!({"email": "ada@example.com", "password": PASSWORD}))
            .send()
    };
    let res = login(&app).await.unwrap();
    let cookie = set_cookie(&res);
    let token = res.json::<Value>().await.unwrap()["access_token"].as_str().unwrap().to_owned();
    assert!(cookie.starts_with(&format!("access_token={token};")), "{cookie}");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=86400"] {
        assert!(cookie.contains(attribute), "{attribute} in {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http on loopback: {cookie}");

    // Calls the spec sends without a bearer header work on the cookie alone...
    let me = app
        .raw(app.client.get(format!("{}/authorization/me", app.url)).header("cookie", format!("access_token={token}")))
        .await;
    assert_eq!(me.status, StatusCode::OK);
    // ...writes too, from our own origin.
    let edit = app
        .raw(
            app.client
                .patch(format!("{}/profile/me", app.url))
                .header("cookie", format!("access_token={token}"))
                .header("origin", &app.url)
                .json(&json!({"description": "cookie only"})),
        )
        .await;
    assert_eq!((edit.status, edit.body["description"].clone()), (StatusCode::OK, json!("cookie only")));

    for path in ["/auth/logout", "/authorization/logout"] {
        let token =
            login(&app).await.unwrap().json::<Value>().await.unwrap()["access_token"].as_str().unwrap().to_owned();
        let out = app
            .client
            .post(format!("{}{path}", app.url))
            .header("cookie", format!("access_token={token}"))
            .header("origin", &app.url)
            .send()
            .await
            .unwrap();
        assert_eq!(out.status(), StatusCode::OK, "{path}");
        let cleared = set_cookie(&out);
        assert!(cleared.starts_with("access_token=;") && cleared.contains("Max-Age=0"), "{path}: {cleared}");
        assert_eq!(app.get("/authorization/me", Some(&token)).await.status, StatusCode::UNAUTHORIZED, "{path}");
    }
}

async fn a_client_on_another_site_gets_a_cross_site_cookie(db: TestDb) {
    let env = vec![
        ("SELFSOUND_COOKIE_SAMESITE".to_owned(), "none".to_owned()),
        ("CORS_ALLOWED_ORIGINS".to_owned(), "https://client.example".to_owned()),
    ];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    app.verified_user("Ada", "ada@example.com").await;
    let res = app
        .client
        .post(format!("{}/authorization/logindefault", app.url))
        .header("origin", "https://client.example")
        .json(&json!({"email": "ada@example.com", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["access-control-allow-credentials"], "true");
    let cookie = set_cookie(&res);
    assert!(cookie.contains("SameSite=None") && cookie.contains("Secure") && cookie.contains("HttpOnly"), "{cookie}");
}

async fn the_verification_link_can_land_on_a_hash_routed_client(db: TestDb) {
    let env = vec![(
        "SELFSOUND_VERIFIED_REDIRECT".to_owned(),
        "https://client.example/#/sign-in?verified={verified}".to_owned(),
    )];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    app.sign_up("Ada", "ada@example.com", PASSWORD).await;
    let link = app.verification_link("ada@example.com");
    let first = app.client.get(&link).send().await.unwrap();
    assert_eq!(first.headers()["location"], "https://client.example/#/sign-in?verified=true");
    let again = app.client.get(&link).send().await.unwrap();
    assert_eq!(again.headers()["location"], "https://client.example/#/sign-in?verified=false");
}

async fn avatar_url_is_never_null_and_the_default_is_served(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let (_, bea_id) = app.person("Bea", "bea@example.com").await;
    app.call(Method::POST, &format!("/profiles/listening/{bea_id}"), Some(&ada), None).await;
    let default = format!("{}/static/default-avatar-v1.svg", app.url);
    let answers = [
        app.get("/authorization/me", Some(&ada)).await.body["avatar_url"].clone(),
        app.get("/profile/me/profile", Some(&ada)).await.body["avatar_url"].clone(),
        app.get(&format!("/profiles/{ada_id}"), None).await.body["avatar_url"].clone(),
        app.get("/profiles/search?query=bea", Some(&ada)).await.body[0]["avatar_url"].clone(),
        app.get("/profiles/listened", Some(&ada)).await.body[0]["avatar_url"].clone(),
    ];
    for a in answers {
        assert_eq!(a, default.as_str());
    }
    app.call(Method::POST, &format!("/profiles/blocks/{bea_id}"), Some(&ada), None).await;
    assert_eq!(app.get("/profiles/blocks", Some(&ada)).await.body[0]["avatar_url"], default.as_str());

    let served = app.client.get(&default).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.headers()["content-type"], "image/svg+xml");
    assert!(served.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert!(served.text().await.unwrap().starts_with("<svg"));
}

async fn a_tag_may_be_sent_by_name_and_role_is_its_id(db: TestDb) {
    let app = spawn_app(db).await;
    let (ada, ada_id) = app.person("Ada", "ada@example.com").await;
    let patch = |tag: Value| app.call(Method::PATCH, "/profile/me", Some(&ada), Some(json!({"tag_id": tag})));
    for (sent, id) in
        [(json!("Musician"), json!(MUSICIAN)), (json!("learner"), json!(LEARNER)), (json!(MUSICIAN), json!(MUSICIAN))]
    {
        let res = patch(sent.clone()).await;
        assert_eq!(res.status, StatusCode::OK, "{sent}: {:?}", res.body);
        assert_eq!((res.body["tag_id"].clone(), res.body["role"].clone()), (id.clone(), id), "{sent}");
    }
    let public = app.get(&format!("/profiles/{ada_id}"), None).await.body;
    assert_eq!((public["role"].clone(), public["tag"]["name"].clone()), (json!(MUSICIAN), json!("Musician")));
    for clear in [json!(null), json!(""), json!("Add tag")] {
        patch(json!("Learner")).await;
        let res = patch(clear.clone()).await;
        assert_eq!(
            (res.status, res.body["tag_id"].clone(), res.body["role"].clone()),
            (StatusCode::OK, json!(null), json!(null)),
            "{clear}"
        );
    }
    let unknown = patch(json!("Conductor")).await;
    assert_eq!((unknown.status, unknown.detail()), (StatusCode::BAD_REQUEST, "Unknown tag"));
}

test_support::both_backends!(
    sign_in_sets_the_cookie_and_both_logouts_clear_it,
    a_client_on_another_site_gets_a_cross_site_cookie,
    the_verification_link_can_land_on_a_hash_routed_client,
    avatar_url_is_never_null_and_the_default_is_served,
    a_tag_may_be_sent_by_name_and_role_is_its_id,
);

fn statuses(op: &Value) -> Vec<String> {
    op["responses"].as_object().map(|r| r.keys().cloned().collect()).unwrap_or_default()
}

/// Every status a handler can answer is in `/openapi.json`: those particular to it, and those
/// every handler of its kind can give.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_lists_every_answer() {
    let app = spawn_app(TestDb::sqlite()).await;
    let doc = app.get("/openapi.json", None).await.body;
    let paths = doc["paths"].as_object().unwrap();
    let op = |path: &str, method: &str| statuses(&doc["paths"][path][method]);
    for s in ["200", "400", "401", "403", "409", "413", "415", "422", "500"] {
        assert!(op("/profile/me", "patch").contains(&s.to_owned()), "PATCH /profile/me lacks {s}");
    }
    for s in ["302", "502", "503"] {
        assert!(op("/auth/login", "get").contains(&s.to_owned()), "GET /auth/login lacks {s}");
    }
    assert!(op("/profiles/listening/{id}", "post").contains(&"404".to_owned()));
    assert!(op("/profiles/search", "get").contains(&"400".to_owned()), "a bad limit is a 400");
    for path in ["/authorization/logout", "/auth/logout", "/static/default-avatar-v1.svg", "/media/{key}"] {
        assert!(paths.contains_key(path), "{path} is documented");
    }
    let mut operations = 0;
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            operations += 1;
            let s = statuses(op);
            assert!(s.contains(&"500".to_owned()), "{method} {path}");
            if op.get("security").is_some() {
                assert!(s.contains(&"401".to_owned()), "{method} {path}: signed-in calls answer 401");
            }
            if path.contains('{') {
                assert!(s.contains(&"404".to_owned()), "{method} {path}");
            }
            if op["requestBody"]["content"].get("application/json").is_some() {
                for code in ["413", "415", "422"] {
                    assert!(s.contains(&code.to_owned()), "{method} {path} lacks {code}");
                }
            }
        }
    }
    assert!(operations >= 28, "every handler is registered once and documented: {operations}");
}
