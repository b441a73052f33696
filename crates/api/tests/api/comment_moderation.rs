//! Comments under moderation through the API (issue 16): deleting a comment (its author, the
//! post's author, an admin), reporting one as a post is reported, comment complaints beside
//! post complaints, the grouped to-do list and its pages, and the limits on both calls.

use db::diesel::prelude::*;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use test_support::TestDb;

use crate::common::{Answer, Options, TestApp, make_admin, spawn_app, spawn_app_with};

fn block(app: &TestApp, blocker: &str, blocked: &str) {
    use db::schema::blocks;
    let id = |s: &str| s.parse::<values::UserId>().unwrap();
    db::diesel::insert_into(blocks::table)
        .values((
            blocks::blocker_id.eq(id(blocker)),
            blocks::blocked_id.eq(id(blocked)),
            blocks::created_at.eq(db::time::now()),
        ))
        .execute(&mut app.db.get().unwrap())
        .unwrap();
}

/// The audit log's rows: (action, comment id).
fn audit_rows(app: &TestApp) -> Vec<(String, Option<String>)> {
    use db::schema::admin_actions;
    let rows: Vec<(String, Option<values::CommentId>)> = admin_actions::table
        .order(admin_actions::id)
        .select((admin_actions::action, admin_actions::comment_id))
        .load(&mut app.db.get().unwrap())
        .unwrap();
    rows.into_iter().map(|(a, c)| (a, c.map(|c| c.to_string()))).collect()
}

impl TestApp {
    /// `token` comments `text` on `post`; answers the comment's id.
    async fn comment(&self, token: &str, post: &str, text: &str) -> String {
        let made = self.post(&format!("/posts/{post}/comments"), Some(token), json!({"content": text})).await;
        assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.body);
        made.body["comment"]["id"].as_str().unwrap().to_owned()
    }

    async fn delete_comment(&self, token: Option<&str>, post: &str, comment: &str) -> Answer {
        self.call(Method::DELETE, &format!("/posts/{post}/comments/{comment}"), token, None).await
    }

    async fn comments_count(&self, post: &str) -> i64 {
        self.get(&format!("/posts/{post}"), None).await.body["comments_count"].as_i64().unwrap()
    }

    async fn comment_ids(&self, post: &str) -> Vec<String> {
        let list = self.get(&format!("/posts/{post}/comments"), None).await.body;
        list.as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
    }

    async fn notification_count(&self, token: &str) -> usize {
        self.get("/notifications", Some(token)).await.body.as_array().unwrap().len()
    }

    async fn report_comment(&self, token: &str, comment: &str, reason: &str) -> Answer {
        let description = if reason == "Other" { json!("not nice") } else { Value::Null };
        let body = json!({"comment_id": comment, "reason": reason, "description": description});
        self.post("/reports/comment", Some(token), body).await
    }
}

async fn a_comment_is_deleted_by_its_author_the_post_author_or_an_admin(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, ana_id) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let (dee, dee_id) = app.person("Dee", "dee@example.com").await;
    let (root, _) = app.person("Root", "root@example.com").await;
    make_admin(&app.db, "root@example.com");
    let post = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();
    let other = app.lyrics_post(&ana, "Other").await["id"].as_str().unwrap().to_owned();
    let mine = app.comment(&bob, &post, "hello @cyd").await;
    let kept = app.comment(&cy, &post, "nice one").await;
    assert_eq!(app.comments_count(&post).await, 2);
    assert_eq!((app.notification_count(&ana).await, app.notification_count(&cy).await), (2, 1));

    // Who may not: signed out, someone else, the wrong post, a post that is not there.
    assert_eq!(app.delete_comment(None, &post, &mine).await.status, StatusCode::UNAUTHORIZED);
    let other_person = app.delete_comment(Some(&dee), &post, &mine).await;
    assert_eq!(
        (other_person.status, other_person.detail()),
        (StatusCode::FORBIDDEN, "You can only delete your own comments, or comments on your own posts")
    );
    let wrong_post = app.delete_comment(Some(&bob), &other, &mine).await;
    assert_eq!((wrong_post.status, wrong_post.detail()), (StatusCode::NOT_FOUND, "Comment not found"));
    let no_post = app.delete_comment(Some(&bob), "123", &mine).await;
    assert_eq!((no_post.status, no_post.detail()), (StatusCode::NOT_FOUND, "Post not found"));
    assert_eq!(app.delete_comment(Some(&bob), &post, "abc").await.status, StatusCode::NOT_FOUND);
    // Hidden by a block: with the post's author the post, with the comment's author the comment.
    block(&app, &ana_id, &dee_id);
    let hidden_post = app.delete_comment(Some(&dee), &post, &mine).await;
    assert_eq!((hidden_post.status, hidden_post.detail()), (StatusCode::NOT_FOUND, "Post not found"));
    let (eve, eve_id) = app.person("Eve", "eve@example.com").await;
    block(&app, &eve_id, &bob_id);
    let hidden_comment = app.delete_comment(Some(&eve), &post, &mine).await;
    assert_eq!((hidden_comment.status, hidden_comment.detail()), (StatusCode::NOT_FOUND, "Comment not found"));
    assert_eq!(app.comments_count(&post).await, 2, "nothing changed");

    // The author: the comment, its count and the notifications about it go.
    assert_eq!(app.delete_comment(Some(&bob), &post, &mine).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.comment_ids(&post).await, vec![kept.clone()]);
    assert_eq!(app.comments_count(&post).await, 1);
    assert_eq!((app.notification_count(&ana).await, app.notification_count(&cy).await), (1, 0));
    assert_eq!(app.delete_comment(Some(&bob), &post, &mine).await.status, StatusCode::NOT_FOUND, "once");

    // The post's author deletes someone's comment on their post; nothing is audited.
    assert_eq!(app.delete_comment(Some(&ana), &post, &kept).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.comments_count(&post).await, 0);
    assert!(audit_rows(&app).is_empty());

    // An admin deletes someone's comment: audited, and its open complaint closes.
    let rude = app.comment(&bob, &other, "rude words").await;
    assert_eq!(app.report_comment(&cy, &rude, "Harassment").await.status, StatusCode::CREATED);
    assert_eq!(app.delete_comment(Some(&root), &other, &rude).await.status, StatusCode::NO_CONTENT);
    assert_eq!(audit_rows(&app), vec![("delete_comment".to_owned(), Some(rude.clone()))]);
    assert_eq!(app.get("/admin/reports", Some(&root)).await.body, json!([]));
    let resolved = app.get("/admin/reports?status=resolved", Some(&root)).await.body;
    assert_eq!(
        (resolved[0]["status"].as_str(), resolved[0]["comment"]["exists"].as_bool()),
        (Some("deleted"), Some(false))
    );
    assert_eq!(resolved[0]["audit"][0]["action"], "delete_comment");
    // Their own comment is theirs: not audited.
    let own = app.comment(&root, &other, "admin here").await;
    assert_eq!(app.delete_comment(Some(&root), &other, &own).await.status, StatusCode::NO_CONTENT);
    assert_eq!(audit_rows(&app).len(), 1);
    assert_eq!(app.comments_count(&other).await, 0);
}

async fn a_comment_is_reported_as_a_post_is(db: TestDb) {
    let app = spawn_app(db).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, bob_id) = app.person("Bob", "bob@example.com").await;
    let (cy, cy_id) = app.person("Cy", "cyd@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();
    let comment = app.comment(&bob, &post, "spam spam").await;
    let report = |reason: Value, description: Value| json!({"comment_id": comment, "reason": reason, "description": description});

    let signed_out = app.post("/reports/comment", None, report(json!("Spam"), Value::Null)).await;
    assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);
    for (reason, description) in
        [(json!("Other"), json!("  ")), (json!("Rude"), Value::Null), (Value::Null, Value::Null)]
    {
        let a = app.post("/reports/comment", Some(&cy), report(reason, description)).await;
        assert_eq!((a.status, a.detail()), (StatusCode::BAD_REQUEST, "Please select or enter a reason."));
    }
    let nul = app.post("/reports/comment", Some(&cy), report(json!("Other"), json!("a\u{0}b"))).await;
    assert_eq!(nul.status, StatusCode::BAD_REQUEST);
    let own = app.post("/reports/comment", Some(&bob), report(json!("Spam"), Value::Null)).await;
    assert_eq!((own.status, own.detail()), (StatusCode::BAD_REQUEST, "You cannot report your own comment"));
    let missing = app.post("/reports/comment", Some(&cy), json!({"comment_id": "123", "reason": "Spam"})).await;
    assert_eq!((missing.status, missing.detail()), (StatusCode::NOT_FOUND, "Comment not found"));
    let malformed = app.post("/reports/comment", Some(&cy), json!({"reason": "Spam"})).await;
    assert_eq!(malformed.status, StatusCode::UNPROCESSABLE_ENTITY);

    let first = app.post("/reports/comment", Some(&cy), report(json!("Other"), json!(" spammy "))).await;
    assert_eq!((first.status, first.body["message"].as_str()), (StatusCode::CREATED, Some("Report submitted")));
    let again = app.post("/reports/comment", Some(&cy), report(json!("Spam"), Value::Null)).await;
    assert_eq!(again.status, StatusCode::OK, "a repeat succeeds without a second report");
    // The post and a comment on it are two things to report.
    let the_post = json!({"post_id": post, "reason": "Spam", "description": null});
    assert_eq!(app.post("/reports/post", Some(&cy), the_post).await.status, StatusCode::CREATED);
    // A block between reporter and commenter hides the comment.
    block(&app, &bob_id, &cy_id);
    let (dee, dee_id) = app.person("Dee", "dee@example.com").await;
    block(&app, &dee_id, &bob_id);
    let hidden = app.post("/reports/comment", Some(&dee), report(json!("Spam"), Value::Null)).await;
    assert_eq!((hidden.status, hidden.detail()), (StatusCode::NOT_FOUND, "Comment not found"));
    let rows: i64 = db::schema::reports::table.count().get_result(&mut app.db.get().unwrap()).unwrap();
    assert_eq!(rows, 2);
}

async fn comment_complaints_are_listed_grouped_and_resolved(db: TestDb) {
    let app = spawn_app(db).await;
    let (root, _) = app.person("Root", "root@example.com").await;
    make_admin(&app.db, "root@example.com");
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (bob, _) = app.person("Bob", "bob@example.com").await;
    let mut people = Vec::new();
    for i in 0..3 {
        people.push(app.person(&format!("Rep {i}"), &format!("rep{i}@example.com")).await.0);
    }
    let post = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();
    let other_post = app.lyrics_post(&bob, "Other").await["id"].as_str().unwrap().to_owned();
    let rude = app.comment(&bob, &post, "you have no talent").await;
    for (who, reason) in people.iter().zip(["Harassment", "Harassment", "Other"]) {
        assert_eq!(app.report_comment(who, &rude, reason).await.status, StatusCode::CREATED);
    }
    for who in &people[..2] {
        let r = app.post("/reports/post", Some(who), json!({"post_id": other_post, "reason": "Spam"})).await;
        assert_eq!(r.status, StatusCode::CREATED);
    }

    // The spec's list: every complaint with the spec's fields, comment complaints beside post ones.
    let list = app.get("/admin/reports", Some(&root)).await.body;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 5);
    let about_comment: Vec<&Value> = list.iter().filter(|c| c["target_type"] == "comment").collect();
    assert_eq!(about_comment.len(), 3);
    let c = about_comment[0];
    for field in ["id", "title", "data", "reporter_id", "post_id", "reason", "post_link", "reporter_name", "status"] {
        assert!(!c[field].is_null(), "{field}: {c}");
    }
    assert_eq!(c["post_id"], post.as_str());
    assert_eq!(c["post_link"], format!("{}/app/post/{post}", app.url));
    assert_eq!(c["comment_id"], rude.as_str());
    assert_eq!(c["comment"]["content"], "you have no talent");
    assert_eq!(c["comment"]["author"]["login"], "bob");
    assert!(c["title"].as_str().unwrap().ends_with(": comment by @bob on a lyrics post by @ana"), "{c}");
    let spam = list.iter().find(|c| c["reason"] == "Spam").unwrap();
    assert_eq!((spam["target_type"].as_str(), spam["comment"].is_null()), (Some("post"), true));
    assert_eq!(spam["title"], "Spam: lyrics post by @bob");

    // Pages of the spec's list.
    let first = app.get("/admin/reports?limit=2", Some(&root)).await.body;
    let last_id = first[1]["id"].as_str().unwrap();
    let next = app.get(&format!("/admin/reports?limit=10&before={last_id}"), Some(&root)).await.body;
    let seen: std::collections::HashSet<&str> =
        first.as_array().unwrap().iter().chain(next.as_array().unwrap()).map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!((seen.len(), next.as_array().unwrap().len()), (5, 3));

    // The grouped list: one row an item, the most reported first, with counts and reasons.
    let groups = app.get("/admin/reports/groups", Some(&root)).await.body;
    let groups = groups.as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let g = &groups[0];
    assert_eq!((g["target_type"].as_str(), g["count"].as_i64()), (Some("comment"), Some(3)));
    assert_eq!(g["reasons"], json!([{"reason": "Harassment", "count": 2}, {"reason": "Other", "count": 1}]));
    assert_eq!(g["comment"]["content"], "you have no talent");
    assert_eq!(g["title"], "comment by @bob on a lyrics post by @ana");
    assert_eq!(g["complaints"].as_array().unwrap().len(), 3);
    assert_eq!((groups[1]["post_id"].as_str(), groups[1]["count"].as_i64()), (Some(other_post.as_str()), Some(2)));
    let page = app.get("/admin/reports/groups?limit=1", Some(&root)).await.body;
    let cursor = page[0]["cursor"].as_str().unwrap();
    let rest = app.get(&format!("/admin/reports/groups?limit=1&before={cursor}"), Some(&root)).await.body;
    assert_eq!(rest.as_array().unwrap().len(), 1);
    assert_eq!(rest[0]["post_id"], other_post.as_str());
    let bad = app.get("/admin/reports/groups?before=oops", Some(&root)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.get("/admin/reports/groups", None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.get("/admin/reports/groups", Some(&ana)).await.status, StatusCode::FORBIDDEN);

    // A comment's complaint deletes the comment, never the post; the reverse is refused too.
    let complaint = g["complaints"][0]["id"].as_str().unwrap();
    let resolve = |id: &str| format!("/admin/reports/{id}/resolve");
    let wrong = app.post(&resolve(complaint), Some(&root), json!({"action": "delete_post"})).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert!(wrong.detail().contains("about a comment"), "{}", wrong.detail());
    let post_complaint = groups[1]["complaints"][0]["id"].as_str().unwrap();
    let wrong = app.post(&resolve(post_complaint), Some(&root), json!({"action": "delete_comment"})).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    let odd_scope = app.post(&resolve(complaint), Some(&root), json!({"action": "ignore", "scope": "all"})).await;
    assert_eq!(odd_scope.status, StatusCode::BAD_REQUEST);
    let deleted = app.post(&resolve(complaint), Some(&root), json!({"action": "delete_comment"})).await;
    assert_eq!(deleted.status, StatusCode::OK, "{:?}", deleted.body);
    assert_eq!(
        (deleted.body["message"].as_str(), deleted.body["status"].as_str()),
        (Some("Report deleted successfully"), Some("deleted"))
    );
    assert_eq!(deleted.body["resolved"].as_array().unwrap().len(), 3);
    assert!(app.comment_ids(&post).await.is_empty());
    assert_eq!(app.comments_count(&post).await, 0);
    assert_eq!(app.get(&format!("/posts/{post}"), None).await.status, StatusCode::OK, "the post stays");
    assert!(audit_rows(&app).contains(&("delete_comment".to_owned(), Some(rude.clone()))));

    // Ignoring a group: every open complaint about the item.
    let ignored = app.post(&resolve(post_complaint), Some(&root), json!({"action": "ignore", "scope": "item"})).await;
    assert_eq!((ignored.status, ignored.body["resolved"].as_array().map(Vec::len)), (StatusCode::OK, Some(2)));
    assert_eq!(app.get("/admin/reports/groups", Some(&root)).await.body, json!([]));
    assert_eq!(app.get("/admin/reports", Some(&root)).await.body, json!([]));
}

/// Comment reports count against the report limit; deleting comments has its own.
async fn comment_reports_and_deletions_are_limited(db: TestDb) {
    let env = vec![("SELFSOUND_WRITE_LIMITS".to_owned(), "report=2:6/1h,comment_delete=2:6/1h".to_owned())];
    let app = spawn_app_with(db, Options { env, ..Options::default() }).await;
    let (ana, _) = app.person("Ana", "ana@example.com").await;
    let (cy, _) = app.person("Cy", "cyd@example.com").await;
    let post = app.lyrics_post(&ana, "Song").await["id"].as_str().unwrap().to_owned();
    let mut comments = Vec::new();
    for i in 0..4 {
        comments.push(app.comment(&ana, &post, &format!("line {i}")).await);
    }
    let on_post = app.post("/reports/post", Some(&cy), json!({"post_id": post, "reason": "Spam"})).await;
    assert_eq!(on_post.status, StatusCode::CREATED);
    assert_eq!(app.report_comment(&cy, &comments[0], "Spam").await.status, StatusCode::CREATED);
    let third = app.report_comment(&cy, &comments[1], "Spam").await;
    assert_eq!(third.status, StatusCode::TOO_MANY_REQUESTS, "one limit for both kinds of report");
    assert!(third.detail().starts_with("Too many reports"), "{}", third.detail());
    for c in &comments[..2] {
        assert_eq!(app.delete_comment(Some(&ana), &post, c).await.status, StatusCode::NO_CONTENT);
    }
    let refused = app.delete_comment(Some(&ana), &post, &comments[2]).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.detail().starts_with("Too many comment deletions"), "{}", refused.detail());
    assert!(refused.headers.contains_key("retry-after"));
}

test_support::both_backends!(
    a_comment_is_deleted_by_its_author_the_post_author_or_an_admin,
    a_comment_is_reported_as_a_post_is,
    comment_complaints_are_listed_grouped_and_resolved,
    comment_reports_and_deletions_are_limited,
);
