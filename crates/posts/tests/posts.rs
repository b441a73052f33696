//! Posts, feeds, likes, comments and mentions on SQLite and PostgreSQL. Uploads of real files
//! are tested through the API (crates/api/tests/api/posts.rs); here posts are lyrics, or rows
//! written straight into the payload tables where only the queries matter.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use db::diesel::prelude::*;
use db::schema::{comments, likes, post_audio, post_media, post_scores, posts as post_table, users};
use db::{DbConnection, Keyset, Page};
use posts::search::{Search, SearchText};
use posts::{
    Comment, FEED_PAGE, Feed, FeedPage, LikeToggle, LyricsInput, LyricsPartInput, Payload, Post, PostError, Posts,
};
use storage::Storage;
use test_support::statements::{
    assert_index_backed, counted, prepared_every_time, prepared_every_time_writing, recorded,
};
use test_support::{TestDb, insert_user};
use values::{PostId, UserId};

struct World {
    db: TestDb,
    posts: Posts,
    _media: tempfile::TempDir,
}

fn world(db: TestDb) -> World {
    let media = tempfile::tempdir().unwrap();
    let posts = Posts::new(db.db.clone(), Storage::local(media.path()).unwrap(), None);
    // As in a server whose PostgreSQL listener is up (`db::Db::hear_other_processes`): pages may be
    // answered from memory on both backends. This one process stamps its own writes.
    db.db.changes().listening(true);
    World { db, posts, _media: media }
}

fn lyrics(title: &str) -> LyricsInput {
    LyricsInput {
        song_title: Some(title.into()),
        artist_name: Some("Someone".into()),
        parts: vec![LyricsPartInput { part_type: Some("verse".into()), lyrics: Some("la la la".into()) }],
        caption: None,
    }
}

/// 1,100 posts of the last hours by someone nobody listens to: more than a page of Listened to
/// looks through among everyone's newest before it takes each listened person's own.
fn a_busy_stranger(c: &mut DbConnection, stranger: UserId) -> QueryResult<()> {
    let now = chrono::Utc::now();
    let songs: Vec<(i64, UserId)> =
        (0..1_100).map(|i| (values::raw_id_at(now - chrono::Duration::seconds(10 + i)), stranger)).collect();
    insert_songs(c, &songs)
}

/// Lyrics posts written straight into the tables, `(id, author)` each (ids made for their time:
/// a past, or more posts than a test would make one by one), inside the caller's transaction.
fn insert_songs(c: &mut DbConnection, songs: &[(i64, UserId)]) -> QueryResult<()> {
    let posts: Vec<String> =
        songs.iter().map(|(id, by)| format!("({id}, {by}, 'lyrics', '2026-01-01 00:00:00')")).collect();
    db::diesel::sql_query(format!("INSERT INTO posts (id, user_id, kind, created_at) VALUES {}", posts.join(",")))
        .execute(c)?;
    let lyrics: Vec<String> = songs
        .iter()
        .map(|(id, _)| format!("({id}, 'Song {id}', 'Someone', '[{{\"type\":\"verse\",\"lyrics\":\"la\"}}]')"))
        .collect();
    let sql = format!("INSERT INTO post_lyrics (post_id, title, artist, parts) VALUES {}", lyrics.join(","));
    db::diesel::sql_query(sql).execute(c).map(drop)
}

impl World {
    fn user(&self, login: &str) -> UserId {
        insert_user(&mut self.db.get().unwrap(), login, login)
    }

    async fn song(&self, by: UserId, title: &str) -> PostId {
        // Ids order by the millisecond: posts made within one have no order among them.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        self.posts.create_lyrics(by, lyrics(title)).await.unwrap().id
    }

    async fn feed(&self, feed: Feed, viewer: Option<UserId>, page: FeedPage) -> Vec<Post> {
        self.posts.feed(feed, page, viewer).await.unwrap()
    }

    /// A like toggle in a transaction of its own, as a use case runs it.
    async fn like(&self, me: UserId, post: PostId) -> Result<LikeToggle, PostError> {
        self.db.write(move |c| posts::toggle_like(c, me, post)).await
    }

    async fn comment(&self, me: UserId, post: PostId, text: &str) -> Result<Comment, PostError> {
        // Ids order by the millisecond: comments made within one have no order among them.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        let text = text.to_owned();
        self.db.write(move |c| posts::add_comment(c, me, post, &text, None)).await.map(|c| c.comment)
    }

    fn posts_count(&self, user: UserId) -> i64 {
        users::table.filter(users::id.eq(user)).select(users::posts_count).first(&mut self.db.get().unwrap()).unwrap()
    }

    fn counts(&self, post: PostId) -> (i64, i64) {
        post_table::table
            .filter(post_table::id.eq(post))
            .select((post_table::likes_count, post_table::comments_count))
            .first(&mut self.db.get().unwrap())
            .unwrap()
    }
}

fn first_page() -> FeedPage {
    FeedPage::Offset(FEED_PAGE.page(None, None))
}

fn titles(posts: &[Post]) -> Vec<String> {
    posts
        .iter()
        .map(|p| match &*p.payload {
            Payload::Lyrics(l) => l.title.clone(),
            other => panic!("not lyrics: {other:?}"),
        })
        .collect()
}

async fn a_lyrics_post_is_listed_with_its_payload_and_counted(db: TestDb) {
    let w = world(db);
    let ana = w.user("ana");
    let post = w.posts.create_lyrics(ana, lyrics("First")).await.unwrap();
    assert_eq!(post.author.login, "ana");
    let Payload::Lyrics(l) = &*post.payload else { panic!("lyrics") };
    assert_eq!((l.title.as_str(), l.artist.as_str(), l.parts.len()), ("First", "Someone", 1));
    assert_eq!(w.posts_count(ana), 1);
    let feed = w.feed(Feed::ForYou, None, first_page()).await;
    assert_eq!(titles(&feed), vec!["First"]);
    assert_eq!(w.posts.post(post.id, None).await.unwrap(), feed[0]);
}

async fn feeds_page_newest_first_by_offset_and_by_cursor(db: TestDb) {
    let w = world(db);
    let ana = w.user("ana");
    for i in 0..25 {
        w.song(ana, &format!("s{i:02}")).await;
    }
    let page1 = w.feed(Feed::ForYou, None, first_page()).await;
    assert_eq!(titles(&page1), (15..25).rev().map(|i| format!("s{i:02}")).collect::<Vec<_>>());
    let by_offset = w.feed(Feed::ForYou, None, FeedPage::Offset(Page { limit: 10, offset: 10 })).await;
    assert_eq!(titles(&by_offset)[0], "s14");
    // New posts arrive while someone reads: the cursor goes on where they were.
    for i in 0..3 {
        w.song(ana, &format!("new{i}")).await;
    }
    let cursor = FeedPage::Before(Keyset { before: Some(page1.last().unwrap().id), limit: 10 });
    let page2 = w.feed(Feed::ForYou, None, cursor).await;
    assert_eq!(titles(&page2), (5..15).rev().map(|i| format!("s{i:02}")).collect::<Vec<_>>());
    let cursor = FeedPage::Before(Keyset { before: Some(page2.last().unwrap().id), limit: 10 });
    assert_eq!(w.feed(Feed::ForYou, None, cursor).await.len(), 5);
    // A person's own list pages the same way.
    assert_eq!(w.feed(Feed::User(ana), None, first_page()).await.len(), 10);
    let nobody = UserId::try_from(42).unwrap();
    assert!(matches!(w.posts.feed(Feed::User(nobody), first_page(), None).await, Err(PostError::UserNotFound)));
}

async fn listened_to_shows_only_the_people_one_listens_to(db: TestDb) {
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    w.song(ana, "by ana").await;
    w.song(bob, "by bob").await;
    w.song(me, "by me").await;
    assert!(w.feed(Feed::ListenedTo, Some(me), first_page()).await.is_empty());
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    assert_eq!(titles(&w.feed(Feed::ListenedTo, Some(me), first_page()).await), vec!["by ana"]);
    assert!(w.feed(Feed::ListenedTo, None, first_page()).await.is_empty(), "a guest listens to nobody");
}

/// Listened to takes one of two walks by how many people the viewer listens to; both give the
/// same pages, by offset and by cursor.
async fn listened_to_is_the_same_whichever_walk_it_takes(db: TestDb) {
    let w = world(db);
    let (few, many) = (w.user("few"), w.user("many"));
    let mut c = w.db.get().unwrap();
    let mut authors = Vec::new();
    for i in 0..(posts::DENSE_LISTENING + 5) {
        let a = insert_user(&mut c, &format!("A{i}"), &format!("author{i}"));
        w.db.write_blocking(|c| social_graph::listen(c, many, a)).unwrap();
        authors.push(a);
    }
    drop(c);
    // Some write often, most never; `few` listens to three of them.
    for (i, a) in authors.iter().enumerate().filter(|(i, _)| i % 40 == 0) {
        for n in 0..(i / 40 + 2) {
            w.song(*a, &format!("{i}-{n}")).await;
        }
    }
    for a in [authors[0], authors[40], authors[1]] {
        w.db.write_blocking(|c| social_graph::listen(c, few, a)).unwrap();
    }
    let all = |viewer| {
        let w = &w;
        async move {
            let mut pages = Vec::new();
            let mut page = FeedPage::Before(Keyset { before: None, limit: 4 });
            loop {
                let found = w.feed(Feed::ListenedTo, Some(viewer), page).await;
                let Some(last) = found.last().map(|p| p.id) else { break };
                pages.extend(titles(&found));
                page = FeedPage::Before(Keyset { before: Some(last), limit: 4 });
            }
            let by_offset =
                w.feed(Feed::ListenedTo, Some(viewer), FeedPage::Offset(Page { limit: 4, offset: 4 })).await;
            (pages, titles(&by_offset))
        }
    };
    let (many_pages, many_second) = all(many).await;
    let every: Vec<String> = titles(&w.feed(Feed::ForYou, None, FeedPage::Offset(Page { limit: 50, offset: 0 })).await);
    assert_eq!(many_pages, every, "the dense walk: everyone's posts, newest first, each once");
    assert_eq!(many_second, every[4..8].to_vec());
    let (few_pages, few_second) = all(few).await;
    let mine: Vec<String> = every.iter().filter(|t| t.starts_with("0-") || t.starts_with("40-")).cloned().collect();
    assert_eq!(few_pages, mine, "the merge: each listened person's newest, newest first, each once");
    assert_eq!(few_second, mine[4..].to_vec());
}

/// Someone who listens to a few people is shown their posts from memory as far back as each
/// person's hundredth post (the newest of everyone's reach only days back for a person who posts
/// rarely), with the posts their people reposted, even when many other posts were made since;
/// every page is the database's page.
async fn listened_to_from_memory_reaches_each_persons_hundredth_post(db: TestDb) {
    let w = world(db);
    let (me, ana, bob, cy, zed) = (w.user("me"), w.user("ana"), w.user("bob"), w.user("cy"), w.user("zed"));
    // Ana's 130 posts, long ago, and one of Cy's among them that Bob reposts; Zed's, lately.
    let start = chrono::Utc::now() - chrono::Duration::days(300);
    let ids: Vec<(i64, UserId)> = (0..131)
        .map(|i| (values::raw_id_at(start + chrono::Duration::hours(i)), if i == 60 { cy } else { ana }))
        .collect();
    w.db.write_blocking(|c| {
        insert_songs(c, &ids)?;
        a_busy_stranger(c, zed)?;
        db::changed(c, &[db::Topic::Everything])?;
        Ok::<_, db::DbError>(())
    })
    .unwrap();
    for who in [ana, bob] {
        w.db.write_blocking(|c| social_graph::listen(c, me, who)).unwrap();
    }
    let cys = PostId::try_from(ids[60].0).unwrap();
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, bob, cys).map(|_| ())).unwrap();
    let mut c = w.db.get().unwrap();
    let mut page = FeedPage::Before(Keyset { before: None, limit: 10 });
    let (mut seen, mut held) = (Vec::new(), 0);
    loop {
        let database = posts::feed_page(&mut c, Feed::ListenedTo, page, Some(me)).unwrap();
        assert_eq!(w.posts.list_on(&mut c, Feed::ListenedTo, page, Some(me)).unwrap(), database, "{page:?}");
        if let Some(answered) = w.posts.remembered_list(Feed::ListenedTo, page, Some(me)) {
            assert_eq!(answered, database, "held: {page:?}");
            held += 1;
        }
        let Some(last) = database.last() else { break };
        seen.extend(database.iter().map(|p| p.id));
        page = FeedPage::Before(Keyset {
            before: PostId::try_from(last.reposted.as_ref().map_or(last.id.get(), |r| r.id)).ok(),
            limit: 10,
        });
    }
    assert_eq!(seen.len(), 131, "every post once");
    assert_eq!(seen[0], cys, "the repost first");
    // Here everyone's newest posts hold them all, so every page; without them, the pages down to
    // Ana's hundredth post.
    assert!(held >= 10, "the pages down to Ana's hundredth post are held: {held}");
}

/// Someone who listens to many people: a post older than the newest reposts held stands in its
/// own place from memory only when its row counts no more reposts than are held (a repost made
/// long ago by someone listened to places it elsewhere, which the database then tells).
async fn listened_to_past_the_reposts_held_asks_the_database(db: TestDb) {
    let w = world(db);
    w.posts.hold_reposts_up_to(1);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    let mut songs = Vec::new();
    for i in 0..5 {
        songs.push(w.song(ana, &format!("a{i}")).await);
    }
    let mut c = w.db.get().unwrap();
    let mut people = vec![ana, bob];
    people.extend((0..posts::DENSE_LISTENING).map(|i| insert_user(&mut c, &format!("F{i}"), &format!("filler{i}"))));
    for who in people {
        w.db.write_blocking(|c| social_graph::listen(c, me, who)).unwrap();
    }
    for post in [songs[0], songs[2]] {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        w.db.write_blocking(|c| posts::reposts::toggle_repost(c, bob, post).map(|_| ())).unwrap();
    }
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    let database = posts::feed_page(&mut c, Feed::ListenedTo, first, Some(me)).unwrap();
    let order: Vec<PostId> = database.iter().map(|p| p.id).collect();
    assert_eq!(order, [songs[2], songs[0], songs[4], songs[3], songs[1]]);
    assert_eq!(w.posts.list_on(&mut c, Feed::ListenedTo, first, Some(me)).unwrap(), database);
    assert!(w.posts.remembered_list(Feed::ListenedTo, first, Some(me)).is_none(), "a0's older repost is not held");
    // Taken back: every repost of the posts shown is held again.
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, bob, songs[0]).map(|_| ())).unwrap();
    let database = posts::feed_page(&mut c, Feed::ListenedTo, first, Some(me)).unwrap();
    assert_eq!(w.posts.list_on(&mut c, Feed::ListenedTo, first, Some(me)).unwrap(), database);
    assert_eq!(w.posts.remembered_list(Feed::ListenedTo, first, Some(me)), Some(database));
}

/// Someone who listens to a few people: each person's newest 100 reposts are held; past them,
/// a post in its own place stands from memory only when nobody reposted it, and every page,
/// by cursor down to the end, is the database's.
async fn listened_to_past_a_persons_reposts_held_asks_the_database(db: TestDb) {
    let w = world(db);
    // Fewer of everyone's newest reposts than Bob made: his own are what reach further.
    w.posts.hold_reposts_up_to(50);
    let (me, ana, bob, cy, zed) = (w.user("me"), w.user("ana"), w.user("bob"), w.user("cy"), w.user("zed"));
    // Ana's 130 posts long ago; Bob reposts the 120 newest of them, later; Cy (whom Me does not
    // listen to) one of the ten oldest.
    let start = chrono::Utc::now() - chrono::Duration::days(300);
    let ids: Vec<i64> = (0..130).map(|i| values::raw_id_at(start + chrono::Duration::hours(i))).collect();
    let reposts: Vec<(i64, i64, UserId)> = (10..130)
        .map(|i| {
            (values::raw_id_at(start + chrono::Duration::days(100) + chrono::Duration::hours(i)), ids[i as usize], bob)
        })
        .chain([(values::raw_id_at(start + chrono::Duration::days(101)), ids[3], cy)])
        .collect();
    w.db.write_blocking(|c| {
        insert_songs(c, &ids.iter().map(|id| (*id, ana)).collect::<Vec<_>>())?;
        a_busy_stranger(c, zed)?;
        let rows: Vec<String> =
            reposts.iter().map(|(id, post, by)| format!("({id}, {post}, {by}, '2026-02-01 00:00:00')")).collect();
        let sql = format!("INSERT INTO reposts (id, post_id, user_id, created_at) VALUES {}", rows.join(","));
        db::diesel::sql_query(sql).execute(c)?;
        db::diesel::sql_query(
            "UPDATE posts SET reposts_count = (SELECT COUNT(*) FROM reposts r WHERE r.post_id = posts.id)",
        )
        .execute(c)?;
        db::changed(c, &[db::Topic::Everything])?;
        Ok::<_, db::DbError>(())
    })
    .unwrap();
    for who in [ana, bob] {
        w.db.write_blocking(|c| social_graph::listen(c, me, who)).unwrap();
    }
    let mut c = w.db.get().unwrap();
    let mut page = FeedPage::Before(Keyset { before: None, limit: 10 });
    let (mut seen, mut held) = (Vec::new(), 0);
    loop {
        let database = posts::feed_page(&mut c, Feed::ListenedTo, page, Some(me)).unwrap();
        assert_eq!(w.posts.list_on(&mut c, Feed::ListenedTo, page, Some(me)).unwrap(), database, "{page:?}");
        if let Some(answered) = w.posts.remembered_list(Feed::ListenedTo, page, Some(me)) {
            assert_eq!(answered, database, "held: {page:?}");
            held += 1;
        }
        let Some(last) = database.last() else { break };
        seen.extend(database.iter().map(|p| p.id.get()));
        let at = last.reposted.as_ref().map_or(last.id.get(), |r| r.id);
        page = FeedPage::Before(Keyset { before: PostId::try_from(at).ok(), limit: 10 });
    }
    assert_eq!(seen.len(), 130, "every post once");
    assert_eq!(seen[..120], ids[10..].iter().rev().copied().collect::<Vec<_>>()[..], "Bob's reposts first");
    assert!((10..13).contains(&held), "the pages of Bob's 100 newest reposts are held: {held}");
}

async fn a_blocked_pair_never_sees_each_others_posts(db: TestDb) {
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    let anas = w.song(ana, "by ana").await;
    let bobs = w.song(bob, "by bob").await;
    w.db.write_blocking(|c| social_graph::listen(c, me, bob)).unwrap();
    w.db.write_blocking(|c| social_graph::block(c, me, ana)).unwrap();
    // Bob blocks me: nothing of his for me either, whoever blocked whom.
    w.db.write_blocking(|c| social_graph::block(c, bob, me)).unwrap();
    assert!(w.feed(Feed::ForYou, Some(me), first_page()).await.is_empty());
    assert!(w.feed(Feed::ListenedTo, Some(me), first_page()).await.is_empty());
    assert!(w.feed(Feed::User(ana), Some(me), first_page()).await.is_empty());
    assert!(titles(&w.feed(Feed::ForYou, Some(ana), first_page()).await).iter().all(|t| t != "by me"));
    for post in [anas, bobs] {
        assert!(matches!(w.posts.post(post, Some(me)).await, Err(PostError::NotFound)));
        assert!(matches!(w.like(me, post).await, Err(PostError::NotFound)));
        assert!(matches!(w.comment(me, post, "hi").await, Err(PostError::NotFound)));
        assert!(matches!(
            w.posts.comments(post, Some(me), Page { limit: 20, offset: 0 }).await,
            Err(PostError::NotFound)
        ));
    }
    // Guests see everything.
    assert_eq!(w.feed(Feed::ForYou, None, first_page()).await.len(), 2);
}

async fn a_like_toggles_and_counts_once(db: TestDb) {
    let w = world(db);
    let (ana, bob) = (w.user("ana"), w.user("bob"));
    let post = w.song(ana, "song").await;
    let liked = w.like(bob, post).await.unwrap();
    assert!(liked.liked);
    assert_eq!((liked.likes_count, liked.added, liked.author), (1, true, ana));
    assert!(w.posts.post(post, Some(bob)).await.unwrap().user_liked);
    assert!(!w.posts.post(post, Some(ana)).await.unwrap().user_liked, "only bob likes it");
    assert!(!w.posts.post(post, None).await.unwrap().user_liked);
    assert!(w.feed(Feed::ForYou, Some(bob), first_page()).await[0].user_liked);
    assert_eq!(w.like(ana, post).await.unwrap().likes_count, 2, "authors may like their own");
    let unliked = w.like(bob, post).await.unwrap();
    assert!(!unliked.liked);
    assert_eq!((unliked.likes_count, unliked.added), (1, false));
    assert_eq!(w.counts(post), (1, 0));
    let ghost = PostId::try_from(77).unwrap();
    assert!(matches!(w.like(bob, ghost).await, Err(PostError::NotFound)));
    let again = w.like(bob, post).await.unwrap();
    assert_eq!((again.liked, again.likes_count, again.added), (true, 2, true), "liked again");
    // Toggles at once (a double click, two tabs): the count stays the number of likes.
    let toggles: Vec<_> = (0..8).map(|_| w.like(bob, post)).collect();
    for toggled in futures_util::future::join_all(toggles).await {
        toggled.unwrap();
    }
    let likes: i64 = likes::table.filter(likes::post_id.eq(post)).count().get_result(&mut w.db.get().unwrap()).unwrap();
    assert_eq!(w.counts(post).0, likes, "the count is the likes there are");
    // Neither a like nor an unlike across a block: the post is not found, nothing moves.
    w.db.write_blocking(|c| social_graph::block(c, ana, bob)).unwrap();
    assert!(matches!(w.like(bob, post).await, Err(PostError::NotFound)));
    assert_eq!(w.counts(post).0, likes);
}

async fn comments_resolve_mentions_and_count(db: TestDb) {
    let w = world(db);
    let (ana, bob, cid, eve) = (w.user("ana"), w.user("bob"), w.user("cid"), w.user("eve"));
    w.db.write_blocking(|c| social_graph::block(c, eve, bob)).unwrap();
    let post = w.song(ana, "song").await;
    assert!(matches!(w.comment(bob, post, "  \n ").await, Err(PostError::EmptyComment)));
    let first = w.comment(bob, post, "  @cid @Ana and @eve, @nobody and @cid again  ").await.unwrap();
    assert_eq!(first.content, "@cid @Ana and @eve, @nobody and @cid again");
    let mentioned: Vec<&str> = first.mentions.iter().map(|m| m.login.as_str()).collect();
    assert_eq!(mentioned, vec!["ana", "cid"], "existing logins, once each; not someone in a block pair");
    assert_eq!(first.mentions[1].user_id, cid);
    let second = w.comment(ana, post, "thanks!").await.unwrap();
    assert_eq!(w.counts(post), (0, 2));
    let page = w.posts.comments(post, None, Page { limit: 20, offset: 0 }).await.unwrap();
    assert_eq!(page.iter().map(|c| c.id).collect::<Vec<_>>(), vec![second.id, first.id], "newest first");
    assert_eq!(page[1].mentions, first.mentions);
    assert_eq!(page[1].author.login, "bob");
    // Eve blocked bob: she does not see his comment.
    let eves = w.posts.comments(post, Some(eve), Page { limit: 20, offset: 0 }).await.unwrap();
    assert_eq!(eves.iter().map(|c| c.id).collect::<Vec<_>>(), vec![second.id]);
    assert_eq!(w.posts.post(post, None).await.unwrap().comments_count, 2);
}

async fn the_mention_picker_leaves_out_blocked_people_and_oneself(db: TestDb) {
    let w = world(db);
    let (me, _anna, annie, _other) = (w.user("anna_me"), w.user("anna"), w.user("annie"), w.user("bob"));
    w.db.write_blocking(|c| social_graph::block(c, annie, me)).unwrap();
    let found = w.posts.mention_candidates(Some(me), "@ann", 10).await.unwrap();
    assert_eq!(found.iter().map(|u| u.login.as_str()).collect::<Vec<_>>(), vec!["anna"]);
    let found = w.posts.mention_candidates(None, "ann", 10).await.unwrap();
    assert_eq!(found.len(), 3);
    assert!(w.posts.mention_candidates(None, "", 10).await.unwrap().is_empty());
}

async fn only_the_author_deletes_a_post_and_everything_on_it_goes(db: TestDb) {
    let w = world(db);
    let (ana, bob) = (w.user("ana"), w.user("bob"));
    let post = w.song(ana, "song").await;
    w.like(bob, post).await.unwrap();
    w.comment(bob, post, "nice @ana").await.unwrap();
    assert!(matches!(w.posts.delete(bob, post).await, Err(PostError::NotAuthor)));
    w.posts.delete(ana, post).await.unwrap();
    assert!(matches!(w.posts.post(post, None).await, Err(PostError::NotFound)));
    assert!(matches!(w.posts.delete(ana, post).await, Err(PostError::NotFound)));
    assert_eq!(w.posts_count(ana), 0);
    let mut c = w.db.get().unwrap();
    let left: i64 = comments::table.count().get_result(&mut c).unwrap();
    let likes_left: i64 = likes::table.count().get_result(&mut c).unwrap();
    assert_eq!((left, likes_left), (0, 0));
}

async fn a_deleted_account_gives_back_its_likes_and_comments(db: TestDb) {
    let w = world(db);
    let (ana, bob) = (w.user("ana"), w.user("bob"));
    let anas = w.song(ana, "song").await;
    let bobs = w.song(bob, "bob's").await;
    w.like(bob, anas).await.unwrap();
    w.comment(bob, anas, "one").await.unwrap();
    w.comment(bob, anas, "two").await.unwrap();
    w.comment(ana, anas, "mine").await.unwrap();
    w.comment(ana, bobs, "on bob's").await.unwrap();
    assert_eq!(w.counts(anas), (1, 3));
    let keys =
        w.db.write_blocking(|conn| {
            let keys = posts::release_account(conn, bob)?;
            db::diesel::delete(users::table.filter(users::id.eq(bob))).execute(conn)?;
            Ok::<_, PostError>(keys)
        })
        .unwrap();
    assert!(keys.is_empty(), "lyrics store no files");
    assert_eq!(w.counts(anas), (0, 1));
    assert!(matches!(w.posts.post(bobs, None).await, Err(PostError::NotFound)));
    assert_eq!(w.posts_count(ana), 1);
}

// --- What a page costs -----------------------------------------------------------------------

/// A post of each kind, its payload rows written straight into the tables (the files do not
/// matter to the queries), `n` times over.
async fn posts_of_every_kind(w: &World, by: UserId, n: usize) {
    for i in 0..n {
        w.song(by, &format!("lyrics {i}")).await;
        let mut c = w.db.get().unwrap();
        for kind in ["media", "audio", "musicxml"] {
            let id = PostId::generate();
            db::diesel::insert_into(post_table::table)
                .values((
                    post_table::id.eq(id),
                    post_table::user_id.eq(by),
                    post_table::kind.eq(kind),
                    post_table::created_at.eq(db::time::now()),
                ))
                .execute(&mut c)
                .unwrap();
            for position in 0..2_i64 {
                match kind {
                    "media" => db::diesel::insert_into(post_media::table)
                        .values((
                            post_media::post_id.eq(id),
                            post_media::position.eq(position),
                            post_media::id.eq(values::new_raw_id()),
                            post_media::file_key.eq("posts/x/a.png"),
                            post_media::file_type.eq("image"),
                        ))
                        .execute(&mut c),
                    "audio" => db::diesel::insert_into(post_audio::table)
                        .values((
                            post_audio::post_id.eq(id),
                            post_audio::position.eq(position),
                            post_audio::title.eq("t"),
                            post_audio::artist.eq("a"),
                            post_audio::file_key.eq("posts/x/a.mp3"),
                            post_audio::duration_ms.eq(1000_i64),
                        ))
                        .execute(&mut c),
                    _ => db::diesel::insert_into(post_scores::table)
                        .values((
                            post_scores::post_id.eq(id),
                            post_scores::position.eq(position),
                            post_scores::title.eq("t"),
                            post_scores::composer.eq("c"),
                            post_scores::file_key.eq("posts/x/a.musicxml"),
                        ))
                        .execute(&mut c),
                }
                .unwrap();
            }
        }
    }
}

async fn a_page_costs_the_same_statements_whatever_its_length(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    posts_of_every_kind(&w, ana, 10).await;
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    let mut c = w.db.get().unwrap();
    for feed in [Feed::ForYou, Feed::ListenedTo, Feed::User(ana)] {
        let mut seen = Vec::new();
        for limit in [1, 10, 40] {
            let page = FeedPage::Offset(Page { limit, offset: 0 });
            let (posts, statements) = counted(&mut c, |c| posts::feed_page(c, feed, page, Some(me)).unwrap());
            assert_eq!(posts.len() as i64, limit);
            let kinds: std::collections::HashSet<_> = posts.iter().map(Post::kind).collect();
            // Listened to first reads how many people the viewer listens to (which walk to take),
            // and besides the posts which of them were reposted and the newest reposts
            // (`posts::reposts`; none here, so no posts of reposts to read).
            let read_first = if feed == Feed::ListenedTo { 3 } else { 0 };
            assert_eq!(
                statements,
                read_first + 1 + kinds.len(),
                "{feed:?}, {limit} posts: the page, then one per kind"
            );
            seen.push(statements);
        }
        assert_eq!(seen[1], seen[2], "{feed:?}: 10 and 40 posts of all four kinds cost the same");
        assert!(seen[2] <= if feed == Feed::ListenedTo { 8 } else { 6 });
    }
    let post =
        posts::feed_page(&mut c, Feed::ForYou, FeedPage::Offset(Page { limit: 1, offset: 0 }), None).unwrap()[0].id;
    let (_, statements) = counted(&mut c, |c| posts::find_post(c, post, Some(me)).unwrap());
    assert_eq!(statements, 2, "the post page: the post, its payload");

    // Comments: two statements for a page of 1 or of 20, mentions included.
    drop(c);
    let target = w.song(ana, "commented").await;
    for i in 0..25 {
        w.comment(me, target, &format!("@ana #{i}")).await.unwrap();
    }
    let mut c = w.db.get().unwrap();
    for limit in [1, 20] {
        let (page, statements) =
            counted(&mut c, |c| posts::comment_page(c, target, Some(me), Page { limit, offset: 0 }).unwrap());
        assert_eq!(page.len() as i64, limit);
        assert!(page.iter().all(|c| c.mentions.len() == 1));
        // One statement checks the post may be seen (its author not suspended, no block
        // between them), then the comments, then their mentions.
        assert_eq!(statements, 3, "{limit} comments");
    }
}

/// Posts written before tags existed (migration 23) get their tags once, at start: the backfill
/// walks every post in batches, resumes from its mark, and leaves nothing to do after; two
/// processes starting at once share the walk.
async fn tags_of_posts_written_before_tags_are_backfilled_once(db: TestDb) {
    use db::schema::{backfills, post_lyrics, post_tags};
    let w = world(db);
    let ada = w.user("ada");
    let mut conn = w.db.get().unwrap();
    // A fresh database has the migration's mark; it walks nothing and goes.
    assert_eq!(posts::tags::backfill(&w.db).unwrap(), 0);
    assert_eq!(backfills::table.count().get_result::<i64>(&mut conn).unwrap(), 0);
    // As a binary before tags wrote them: 2,500 posts (more than one batch), every tenth naming
    // a tag in its caption, one song naming one in its lyrics, no `post_tags` rows.
    let start = chrono::Utc::now() - chrono::Duration::days(3);
    let (mut rows, mut ids) = (Vec::new(), Vec::new());
    for i in 0..2_500i64 {
        let id = values::raw_id_at(start + chrono::Duration::seconds(i));
        ids.push(id);
        let caption = if i % 10 == 0 { format!("'Take {i} #Café #jazz'") } else { "NULL".to_owned() };
        rows.push(format!("({id},{},'lyrics',{caption},'2026-11-01 10:00:00')", ada.get()));
    }
    let sql = format!("INSERT INTO posts (id, user_id, kind, caption, created_at) VALUES {}", rows.join(","));
    db::diesel::sql_query(sql).execute(&mut conn).unwrap();
    let song = PostId::try_from(ids[1]).unwrap();
    db::diesel::insert_into(post_lyrics::table)
        .values((
            post_lyrics::post_id.eq(song),
            post_lyrics::title.eq("Song"),
            post_lyrics::artist.eq("Ada"),
            post_lyrics::parts.eq(r#"[{"type":"verse","lyrics":"la #Ünder la"}]"#),
        ))
        .execute(&mut conn)
        .unwrap();
    let tagged = |conn: &mut DbConnection, tag: &str| -> i64 {
        post_tags::table.filter(post_tags::tag.eq(tag)).count().get_result(conn).unwrap()
    };

    // Half-way: a process died after the first 1,000 posts.
    let mark = ids[999];
    db::diesel::insert_into(backfills::table)
        .values((backfills::name.eq("post_tags"), backfills::after_id.eq(mark)))
        .execute(&mut conn)
        .unwrap();
    assert_eq!(posts::tags::backfill(&w.db).unwrap(), 150);
    assert_eq!(tagged(&mut conn, "cafe"), 150);
    assert_eq!(tagged(&mut conn, "under"), 0, "the song is before the mark");

    // From the start, two processes at once: every post's tags once, the mark gone.
    db::diesel::delete(post_tags::table).execute(&mut conn).unwrap();
    db::diesel::insert_into(backfills::table)
        .values((backfills::name.eq("post_tags"), backfills::after_id.eq(0)))
        .execute(&mut conn)
        .unwrap();
    let (a, b) = (w.db.db.clone(), w.db.db.clone());
    let one = std::thread::spawn(move || posts::tags::backfill(&a).unwrap());
    let other = std::thread::spawn(move || posts::tags::backfill(&b).unwrap());
    assert_eq!(one.join().unwrap() + other.join().unwrap(), 251);
    assert_eq!(tagged(&mut conn, "cafe"), 250);
    assert_eq!(tagged(&mut conn, "jazz"), 250);
    assert_eq!(tagged(&mut conn, "under"), 1);
    assert_eq!(backfills::table.count().get_result::<i64>(&mut conn).unwrap(), 0);
    // Found on the tag's page, as posts written since are (the song: the others have no payload).
    let page = w.posts.tag_page_on(&mut conn, "ÜNDER", Keyset { before: None, limit: 5 }, None).unwrap();
    assert_eq!(page.iter().map(|p| p.id).collect::<Vec<_>>(), [song]);
    assert_eq!(posts::tags::backfill(&w.db).unwrap(), 0, "nothing left to do");
}

/// Discover's job runs once for the requests that arrive together after a start, and not again
/// while what it found is fresh: the others wait for that one find.
async fn discovers_job_runs_once_for_requests_arriving_together(db: TestDb) {
    let w = world(db);
    let every = std::time::Duration::from_secs(300);
    let mut together = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let posts = w.posts.clone();
        together.spawn(async move { posts.discover(None, every, 10).await.unwrap() });
    }
    while let Some(found) = together.join_next().await {
        found.unwrap();
    }
    assert_eq!(w.posts.discover_finds(), 1, "one find for eight requests");
    w.posts.discover(None, every, 10).await.unwrap();
    assert_eq!(w.posts.discover_finds(), 1, "fresh: held");
}

/// A playlist's page: the playlist with its owner, its items, their posts as memory holds them
/// (what it lacks read in a fixed handful of statements), for 2 items or 20 (issue 31).
async fn a_playlist_page_costs_the_same_statements_whatever_its_length(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    posts_of_every_kind(&w, ana, 10).await;
    let tracks: Vec<Post> = w
        .feed(Feed::User(ana), None, FeedPage::Offset(Page { limit: 40, offset: 0 }))
        .await
        .into_iter()
        .filter(|p| matches!(p.kind(), values::PostKind::Audio | values::PostKind::MusicXml))
        .collect();
    assert_eq!(tracks.len(), 20);
    let mut seen = Vec::new();
    for n in [2, 20] {
        let edit = posts::playlists::PlaylistEdit { title: Some(format!("{n} tracks")), ..Default::default() };
        let list = w.posts.create_playlist(me, edit).await.unwrap();
        for post in &tracks[..n] {
            w.posts.add_to_playlist(me, list.id, post.id, 0).await.unwrap();
        }
        let mut c = w.db.get().unwrap();
        // A fresh world holds no payload: each kind on the page is read.
        let media = tempfile::tempdir().unwrap();
        let fresh = Posts::new(w.db.db.clone(), Storage::local(media.path()).unwrap(), None);
        let (page, statements) = counted(&mut c, |c| fresh.playlist_on(c, list.id, Some(me)).unwrap());
        assert_eq!(page.entries.len(), n);
        assert!(page.entries.iter().all(|e| e.post.is_some()));
        // Its posts as memory puts them together: everyone suspended and the block pairs (held
        // for every viewer), the posts' rows, what the viewer likes and reposted, two kinds of
        // payload; then from memory, the playlist and its items alone.
        assert_eq!(statements, 2 + 2 + 2 + 2, "{n} items: the playlist, its items, their posts");
        let (again, statements) = counted(&mut c, |c| fresh.playlist_on(c, list.id, Some(me)).unwrap());
        assert_eq!((again.entries.len(), statements), (n, 2), "read again");
        seen.push(statements);
    }
    assert_eq!(seen[0], seen[1]);
}

async fn moments_cost_the_same_statements_however_many(db: TestDb) {
    let w = world(db);
    let ana = w.user("ana");
    let me = w.user("me");
    posts_of_every_kind(&w, ana, 1).await;
    let mut c = w.db.get().unwrap();
    let audio: PostId =
        post_table::table.filter(post_table::kind.eq("audio")).select(post_table::id).first(&mut c).unwrap();
    drop(c);
    let moment = |at_ms| Some(posts::CommentMoment::Time { track: 1, at_ms });
    let add = |text: String, at: Option<posts::CommentMoment>| {
        w.db.write_blocking(move |c| posts::add_comment(c, me, audio, &text, at).map(drop)).unwrap()
    };
    add("on the whole post".into(), None);
    let mut made = 0;
    for n in [1, 25] {
        while made < n {
            add(format!("@ana at {made}"), moment(900));
            made += 1;
        }
        let mut c = w.db.get().unwrap();
        let (found, statements) = counted(&mut c, |c| posts::comment_moments(c, audio, Some(me)).unwrap());
        assert_eq!(found.len(), n);
        assert!(found.iter().all(|c| c.moment == moment(900) && c.mentions.len() == 1));
        // The post as the viewer may see it, the timed comments, their mentions.
        assert_eq!(statements, 3, "{n} moments");
    }
    let past = w.db.write_blocking(move |c| posts::add_comment(c, me, audio, "late", moment(1001)).map(drop));
    assert!(matches!(past, Err(PostError::MomentPastEnd(_))), "{past:?}");
    let lyrics = w.song(ana, "words").await;
    let wrong = w.db.write_blocking(move |c| posts::add_comment(c, me, lyrics, "here", moment(1)).map(drop));
    assert!(matches!(wrong, Err(PostError::MomentNotOnAudio)), "{wrong:?}");
}

async fn listened_to_pages_right_across_the_floor_of_the_merge(db: TestDb) {
    // Six people who post in turns, the newest posts by one who is then suspended and by one
    // the viewer then blocks: neither may raise the floor the merge starts from, or the pages
    // would come out short.
    let w = world(db);
    let me = w.user("me");
    let people: Vec<UserId> = (0..6).map(|i| w.user(&format!("p{i}"))).collect();
    for p in &people {
        w.db.write_blocking(|c| social_graph::listen(c, me, *p)).unwrap();
    }
    for round in 0..4 {
        for (i, p) in people.iter().enumerate() {
            w.song(*p, &format!("{round}-{i}")).await;
        }
    }
    suspend(&w, people[5]);
    w.db.write_blocking(|c| social_graph::block(c, me, people[4])).unwrap();
    let every: Vec<String> =
        titles(&w.feed(Feed::ForYou, Some(me), FeedPage::Offset(Page { limit: 50, offset: 0 })).await);
    assert_eq!(every.len(), 16, "four people's four posts");
    for limit in [1, 2, 3, 5] {
        let mut pages = Vec::new();
        let mut page = FeedPage::Before(Keyset { before: None, limit });
        loop {
            let found = w.feed(Feed::ListenedTo, Some(me), page).await;
            let Some(last) = found.last().map(|p| p.id) else { break };
            pages.extend(titles(&found));
            page = FeedPage::Before(Keyset { before: Some(last), limit });
        }
        assert_eq!(pages, every, "pages of {limit} by cursor");
        for offset in [0, 1, 4, 7] {
            let found = w.feed(Feed::ListenedTo, Some(me), FeedPage::Offset(Page { limit, offset })).await;
            let end = (offset + limit).min(16) as usize;
            assert_eq!(titles(&found), every[offset as usize..end].to_vec(), "{limit} from {offset}");
        }
    }
}

async fn a_page_read_again_is_not_prepared_again(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    posts_of_every_kind(&w, ana, 12).await;
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    let target = w.song(ana, "commented").await;
    w.comment(me, target, "@ana hello").await.unwrap();
    let pages = |c: &mut DbConnection| {
        let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
        let cursor = FeedPage::Before(Keyset { before: Some(target), limit: 10 });
        for feed in [Feed::ForYou, Feed::ListenedTo, Feed::User(ana)] {
            for page in [first, cursor] {
                for viewer in [Some(me), None] {
                    w.posts.list_on(c, feed, page, viewer).unwrap();
                }
            }
        }
        w.posts.post_on(c, target, Some(me)).unwrap();
        posts::comment_page(c, target, Some(me), Page { limit: 20, offset: 0 }).unwrap();
    };
    // Read once, so that the payloads are remembered (`posts::memory`); then read again on a
    // fresh connection: every statement is kept prepared, found by its text, so neither SQLite
    // nor PostgreSQL parses or plans a page's statements again.
    pages(&mut w.db.get().unwrap());
    let anew = prepared_every_time(&w.db.url, pages);
    assert!(anew.is_empty(), "prepared on every call: {anew:#?}");
}

/// A like, an unlike, a comment and counted limits, done again on a fresh connection: every
/// statement is kept prepared (`db::Kept`), as a page's are, so writes pay neither SQLite's
/// parser and planner nor PostgreSQL's parse again (issue 18). (A comment naming people looks
/// them up with `IN` lists, which SQLite prepares for each length.)
async fn writes_are_not_prepared_again(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    let target = w.song(ana, "liked").await;
    let writes = |db: &db::Db| {
        for _ in 0..2 {
            db.write_blocking(|c| posts::toggle_like(c, me, target).map(drop)).unwrap();
        }
        db.write_blocking(|c| posts::add_comment(c, me, target, "lovely", None).map(drop)).unwrap();
        let window = std::time::Duration::from_secs(60);
        db.write_blocking(|c| {
            db::throttle::hit_all(c, &[("write:like:user:1", 100), ("write:like:client:x", 300)], window)?;
            db::throttle::hit_counting(c, "signin:x", db::throttle::Rule { max: 100, window }).map(drop)
        })
        .unwrap();
    };
    writes(&w.db);
    let anew: Vec<String> = prepared_every_time_writing(&w.db.url, writes)
        .into_iter()
        .filter(|sql| !["BEGIN", "COMMIT", "ROLLBACK"].iter().any(|tx| sql.to_ascii_uppercase().starts_with(tx)))
        // PostgreSQL's commit with its notice to the other processes is one simple query, as a
        // bare COMMIT is (`db::write`).
        .filter(|sql| !(sql.starts_with("SELECT pg_notify(") && sql.ends_with("; COMMIT")))
        .collect();
    assert!(anew.is_empty(), "prepared on every call: {anew:#?}");
}

/// Suspends `who` the way moderation writes it (the rule is tested through the API).
fn suspend(w: &World, who: UserId) {
    use db::schema::suspensions;
    diesel::insert_into(suspensions::table)
        .values((
            suspensions::id.eq(values::new_raw_id()),
            suspensions::user_id.eq(who),
            suspensions::admin_login.eq("rita"),
            suspensions::reason.eq("spam"),
            suspensions::created_at.eq(db::time::now()),
        ))
        .execute(&mut w.db.get().unwrap())
        .unwrap();
    w.db.write_blocking(|c| Ok::<_, db::DbError>(db::changed(c, &[db::Topic::Everything])?)).unwrap();
}

/// What a suspended person wrote is on no list and no page while the suspension stands, and
/// every list costs what it cost before (the rule is in the statement each runs anyway).
async fn a_suspended_persons_posts_and_comments_are_hidden(db: TestDb) {
    let w = world(db);
    let (me, ana, cy) = (w.user("me"), w.user("ana"), w.user("cy"));
    let anas = w.song(ana, "ana's").await;
    let cys = w.song(cy, "cy's").await;
    w.db.write_blocking(|c| social_graph::listen(c, me, cy)).unwrap();
    w.comment(cy, anas, "first").await.unwrap();
    w.comment(me, anas, "second").await.unwrap();
    suspend(&w, cy);
    let mut c = w.db.get().unwrap();
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    for viewer in [Some(me), None] {
        let feed = posts::feed_page(&mut c, Feed::ForYou, first, viewer).unwrap();
        assert_eq!(feed.iter().map(|p| p.id).collect::<Vec<_>>(), [anas], "{viewer:?}");
        assert!(posts::feed_page(&mut c, Feed::User(cy), first, viewer).unwrap().is_empty());
        assert!(posts::find_post(&mut c, cys, viewer).unwrap().is_none());
        let comments = posts::comment_page(&mut c, anas, viewer, Page { limit: 20, offset: 0 }).unwrap();
        assert_eq!(comments.iter().map(|c| c.content.as_str()).collect::<Vec<_>>(), ["second"]);
    }
    assert!(posts::feed_page(&mut c, Feed::ListenedTo, first, Some(me)).unwrap().is_empty());
    assert!(matches!(
        posts::comment_page(&mut c, cys, Some(me), Page { limit: 20, offset: 0 }),
        Err(PostError::NotFound)
    ));
    // Counters keep counting (docs/security.md): the post's own row is not rewritten.
    assert_eq!(posts::find_post(&mut c, anas, None).unwrap().unwrap().comments_count, 2);
}

// --- Pages answered from memory --------------------------------------------------------------

/// Every page a viewer may ask for, as `Posts` answers it (from memory when it can) and as the
/// database's query does, after each kind of write that changes pages: they must be the same,
/// and the first pages must have come from memory.
async fn memory_answers_every_page_as_the_database_does(db: TestDb) {
    memory_matches_the_database(world(db)).await;
}

/// The same with more block pairs than are held for every viewer at once: each viewer's pairs
/// are held apart.
async fn memory_answers_as_the_database_with_too_many_block_pairs_to_hold(db: TestDb) {
    let w = world(db);
    w.posts.hold_block_pairs_up_to(0);
    memory_matches_the_database(w).await;
}

async fn memory_matches_the_database(w: World) {
    let (me, ana, bob, cy) = (w.user("me"), w.user("ana"), w.user("bob"), w.user("cy"));
    let mut made = Vec::new();
    for i in 0..12 {
        for who in [ana, bob, cy] {
            made.push(w.song(who, &format!("{who} {i}")).await);
        }
    }
    let write = |f: &dyn Fn(&mut DbConnection) -> Result<(), PostError>| {
        w.db.write_blocking(|c| f(c)).unwrap();
    };
    let mut bobs = Vec::new();
    for (who, text) in [(me, "first"), (bob, "hi @ana"), (cy, "third"), (ana, "mine"), (bob, "fifth @me")] {
        for post in [made[0], made[1]] {
            let comment = w.comment(who, post, text).await.unwrap();
            if who == bob && post == made[0] {
                bobs.push(comment.id);
            }
        }
    }
    let graph = |f: &dyn Fn(&mut DbConnection) -> Result<bool, social_graph::GraphError>| {
        w.db.write_blocking(|c| f(c)).unwrap();
    };
    let compare = |step: &str, made: &[PostId]| {
        let mut c = w.db.get().unwrap();
        let mut pages =
            vec![FeedPage::Offset(Page { limit: 10, offset: 0 }), FeedPage::Offset(Page { limit: 7, offset: 5 })];
        pages.push(FeedPage::Offset(Page { limit: 10, offset: 30 }));
        pages.push(FeedPage::Before(Keyset { before: Some(made[20]), limit: 10 }));
        pages.push(FeedPage::Before(Keyset { before: None, limit: 3 }));
        for viewer in [Some(me), Some(bob), None] {
            for feed in [Feed::ForYou, Feed::ListenedTo, Feed::User(ana), Feed::User(bob)] {
                for page in &pages {
                    let database = posts::feed_page(&mut c, feed, *page, viewer).unwrap();
                    let answered = w.posts.list_on(&mut c, feed, *page, viewer).unwrap();
                    assert_eq!(answered, database, "{step}: {feed:?} {page:?} for {viewer:?}");
                    if let Some(held) = w.posts.remembered_list(feed, *page, viewer) {
                        assert_eq!(held, database, "{step}, held: {feed:?} {page:?} for {viewer:?}");
                    } else if feed == Feed::ForYou || (feed == Feed::ListenedTo && viewer.is_some()) {
                        panic!("{step}: {feed:?} {page:?} for {viewer:?} was not held");
                    }
                }
            }
            for id in made.iter().step_by(5) {
                let database = posts::find_post(&mut c, *id, viewer).unwrap();
                assert_eq!(w.posts.post_on(&mut c, *id, viewer).ok(), database, "{step}: post {id} for {viewer:?}");
                if database.is_some() {
                    assert_eq!(w.posts.remembered_post(*id, viewer), database, "{step}, held: post {id}");
                }
            }
            for id in [made[0], made[1], made[33]] {
                for page in [Page { limit: 20, offset: 0 }, Page { limit: 3, offset: 2 }] {
                    let database = format!("{:?}", posts::comment_page(&mut c, id, viewer, page));
                    let answered = format!("{:?}", w.posts.comments_on(&mut c, id, viewer, page));
                    assert_eq!(answered, database, "{step}: comments of {id} {page:?} for {viewer:?}");
                    if let Some(held) = w.posts.remembered_comments(id, viewer, page) {
                        assert_eq!(format!("{:?}", Ok::<_, PostError>(held)), database, "{step}, held comments");
                    }
                }
            }
        }
    };
    compare("written", &made);
    write(&|c| posts::toggle_like(c, me, made[35]).map(|_| ()));
    compare("liked by me", &made);
    write(&|c| posts::toggle_like(c, bob, made[35]).map(|_| ()));
    compare("liked by bob", &made);
    graph(&|c| social_graph::listen(c, me, ana));
    compare("listening to ana", &made);
    // Reposts by someone Me listens to place older posts of Ana's (whom Me listens to too) and
    // of Bob's (whom Me does not) in Me's Listened to; Bob's own repost flag.
    graph(&|c| social_graph::listen(c, me, cy));
    compare("listening to cy", &made);
    write(&|c| posts::reposts::toggle_repost(c, cy, made[3]).map(|_| ()));
    write(&|c| posts::reposts::toggle_repost(c, cy, made[7]).map(|_| ()));
    compare("reposted by cy", &made);
    write(&|c| posts::reposts::toggle_repost(c, bob, made[6]).map(|_| ()));
    write(&|c| posts::reposts::toggle_repost(c, cy, made[6]).map(|_| ()));
    compare("reposted by bob and cy", &made);
    write(&|c| posts::reposts::toggle_repost(c, cy, made[3]).map(|_| ()));
    compare("a repost undone", &made);
    graph(&|c| social_graph::block(c, bob, me));
    compare("blocked by bob", &made);
    write(&|c| posts::add_comment(c, me, made[33], "hello", None).map(|_| ()));
    compare("commented", &made);
    write(&|c| posts::delete_post_rows(c, &[made[33], made[10]]).map(|_| ()));
    compare("deleted", &made);
    made.push(w.song(cy, "new").await);
    compare("a new post", &made);
    // A post written long after its id was made (an upload queued and processed for minutes):
    // older than what the newest list reads again for a new post, so it names `Topic::Posts`.
    let late = PostId::try_from(values::raw_id_at(chrono::Utc::now() - chrono::Duration::minutes(5))).unwrap();
    w.db.write_blocking(|c| {
        db::diesel::sql_query("INSERT INTO posts (id, user_id, kind, created_at) VALUES ($1, $2, 'lyrics', $3)")
            .bind::<db::diesel::sql_types::BigInt, _>(late)
            .bind::<db::diesel::sql_types::BigInt, _>(cy)
            .bind::<db::diesel::sql_types::Timestamp, _>(db::time::now())
            .execute(c)?;
        db::diesel::sql_query("INSERT INTO post_lyrics (post_id, title, artist, parts) VALUES ($1, 'Late', 'Cy', '[{\"type\":\"verse\",\"lyrics\":\"la\"}]')")
            .bind::<db::diesel::sql_types::BigInt, _>(late)
            .execute(c)?;
        assert_eq!(db::written_post(late, cy), db::Topic::Posts);
        db::changed(c, &[db::written_post(late, cy), db::Topic::Posted(cy)])?;
        Ok::<_, db::DbError>(())
    })
    .unwrap();
    compare("a post written late", &made);
    made.push(w.song(ana, "newer").await);
    compare("a newer post", &made);
    write(&|c| posts::add_comment(c, bob, made[0], "more", None).map(|_| ()));
    compare("another comment", &made);
    write(&|c| posts::edit_comment(c, bob, made[0], bobs[0], "hi again @cy").map(|_| ()));
    compare("a comment edited", &made);
    write(&|c| posts::delete_comment_rows(c, bobs[1]).map(|_| ()));
    compare("a comment deleted", &made);
    // A commenter posts: the cards shown beside their comments stay as they were.
    made.push(w.song(bob, "bob posts").await);
    compare("a commenter posts", &made);
    let renamed = diesel::update(users::table.filter(users::login.eq("bob"))).set(users::name.eq("Robert"));
    renamed.execute(&mut w.db.get().unwrap()).unwrap();
    w.db.write_blocking(|c| Ok::<_, db::DbError>(db::changed(c, &[db::Topic::User(bob)])?)).unwrap();
    compare("bob renamed", &made);
    graph(&|c| social_graph::unblock(c, bob, me));
    compare("unblocked", &made);
    graph(&|c| social_graph::unlisten(c, me, ana));
    compare("no longer listening", &made);
    suspend(&w, ana);
    compare("ana suspended", &made);
}

/// A new post is taken into the list of the newest posts as its stamp tells it, reading no
/// list at all; a new post heard without saying which (from a process of an older version)
/// brings the list up to date by reading only the posts made since a moment before its last
/// read (one statement, bounded below by id), not the whole list. Each once made every process
/// read 20,000 rows, then the last 70 seconds' (issue 30). (What reads it whole again, a
/// deletion or a post written late, is in `memory_answers_every_page_as_the_database_does`.)
async fn a_new_post_reads_only_what_is_new(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    for i in 0..5 {
        w.song(ana, &format!("old {i}")).await;
    }
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    let mut c = w.db.get().unwrap();
    w.posts.list_on(&mut c, Feed::ForYou, first, Some(me)).unwrap();
    // SQLite quotes names with backticks, PostgreSQL with double quotes.
    let lists = |statements: Vec<String>| -> Vec<String> {
        statements
            .into_iter()
            .map(|s| s.replace('`', "\""))
            .filter(|s| s.contains("FROM \"posts\"") && s.contains("ORDER BY \"posts\".\"id\" DESC"))
            .collect()
    };
    let new = w.song(ana, "new").await;
    assert!(w.posts.remembered_list(Feed::ForYou, first, Some(me)).is_none(), "its row is not held yet");
    let statements = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ForYou, first, Some(me)).unwrap();
        assert_eq!(page[0].id, new);
    });
    assert_eq!(lists(statements), Vec::<String>::new(), "taken in as stamped");
    let held = w.posts.remembered_list(Feed::ForYou, first, Some(me)).unwrap();
    assert_eq!(held[0].id, new, "and answered without a connection");

    // Heard from another process as "some post was written": what is new is read.
    let newer = w.song(ana, "newer").await;
    w.db.changes().heard("@1f,w");
    let statements = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ForYou, first, Some(me)).unwrap();
        assert_eq!((page[0].id, page[1].id), (newer, new));
    });
    let newest = lists(statements);
    assert_eq!(newest.len(), 1, "{newest:#?}");
    assert!(newest[0].contains("\"posts\".\"id\" >="), "only what is new: {}", newest[0]);
}

/// Listened to with reposts is answered from memory, whether one listens to many people or a
/// few: a new repost reads only the reposts made since the newest reposts held were read (once
/// for every viewer), and one taken back reads them whole.
async fn a_new_repost_reads_only_what_is_new(db: TestDb) {
    let w = world(db);
    let (me, few, ana, cy) = (w.user("me"), w.user("few"), w.user("ana"), w.user("cy"));
    let mut songs = Vec::new();
    for i in 0..5 {
        songs.push(w.song(ana, &format!("old {i}")).await);
    }
    let mut c = w.db.get().unwrap();
    let mut people = vec![cy];
    people.extend((0..posts::DENSE_LISTENING).map(|i| insert_user(&mut c, &format!("F{i}"), &format!("filler{i}"))));
    for who in people {
        w.db.write_blocking(|c| social_graph::listen(c, me, who)).unwrap();
    }
    w.db.write_blocking(|c| social_graph::listen(c, few, cy)).unwrap();
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, cy, songs[0]).map(|_| ())).unwrap();
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    for viewer in [me, few] {
        let page = w.posts.list_on(&mut c, Feed::ListenedTo, first, Some(viewer)).unwrap();
        assert_eq!(page.iter().map(|p| p.id).collect::<Vec<_>>(), [songs[0]]);
        assert_eq!(page[0].reposted.as_ref().map(|r| r.by.id), Some(cy));
        assert_eq!(w.posts.remembered_list(Feed::ListenedTo, first, Some(viewer)), Some(page), "held");
    }
    // Everyone's newest reposts, and one person's.
    let everyone = |statements: &[String]| -> Vec<String> {
        statements.iter().map(|s| s.replace('`', "\"")).filter(|s| s.contains("FROM (\"reposts\"")).collect()
    };
    let persons = |statements: &[String]| statements.iter().filter(|s| s.contains("FROM reposts r JOIN posts")).count();
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, cy, songs[3]).map(|_| ())).unwrap();
    for viewer in [me, few] {
        let statements = recorded(&mut c, |c| {
            let page = w.posts.list_on(c, Feed::ListenedTo, first, Some(viewer)).unwrap();
            assert_eq!(page.iter().map(|p| p.id).collect::<Vec<_>>(), [songs[3], songs[0]]);
        });
        if viewer == me {
            let read = everyone(&statements);
            assert_eq!(read.len(), 1, "{read:#?}");
            assert!(read[0].contains("\"reposts\".\"id\" >="), "only what is new: {}", read[0]);
        } else {
            assert_eq!((everyone(&statements).len(), persons(&statements)), (0, 0), "read once: {statements:#?}");
        }
    }
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, cy, songs[0]).map(|_| ())).unwrap();
    let statements = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ListenedTo, first, Some(me)).unwrap();
        assert_eq!(page.iter().map(|p| p.id).collect::<Vec<_>>(), [songs[3]]);
    });
    let read = everyone(&statements);
    assert!(read.len() == 1 && !read[0].contains(">="), "read whole: {read:#?}");
    for viewer in [me, few] {
        let database = posts::feed_page(&mut c, Feed::ListenedTo, first, Some(viewer)).unwrap();
        assert_eq!(w.posts.list_on(&mut c, Feed::ListenedTo, first, Some(viewer)).unwrap(), database);
        assert_eq!(w.posts.remembered_list(Feed::ListenedTo, first, Some(viewer)), Some(database));
    }
}

/// A like reads again only the liker's likes: what else is held of them (whom they listen to,
/// their block pairs) stands, and their next page reads one statement, not four. Someone who
/// likes more posts than are held of their likes (100) sees the right state on older posts
/// too, and on the posts they like next.
async fn a_like_reads_again_only_the_likers_likes(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    let old = [w.song(ana, "old one").await, w.song(ana, "old two").await];
    // Newer posts than those, 300 lyrics posts, all liked.
    let newer: Vec<i64> =
        (0..300).map(|i| values::raw_id_at(chrono::Utc::now() + chrono::Duration::seconds(1 + i))).collect();
    w.db.write_blocking(|c| {
        insert_songs(c, &newer.iter().map(|id| (*id, ana)).collect::<Vec<_>>())?;
        let likes: Vec<String> = newer.iter().map(|id| format!("({id}, {me}, '2026-01-01 00:00:00')")).collect();
        db::diesel::sql_query(format!("INSERT INTO likes (post_id, user_id, created_at) VALUES {}", likes.join(",")))
            .execute(c)?;
        db::changed(c, &[db::Topic::Everything])?;
        Ok::<_, db::DbError>(())
    })
    .unwrap();
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    let mut c = w.db.get().unwrap();
    let same = |c: &mut DbConnection, step: &str| {
        for id in old {
            let database = posts::find_post(c, id, Some(me)).unwrap();
            assert_eq!(w.posts.post_on(c, id, Some(me)).ok(), database, "{step}: post {id}");
        }
        let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
        for feed in [Feed::ForYou, Feed::ListenedTo] {
            let database = posts::feed_page(c, feed, first, Some(me)).unwrap();
            assert_eq!(w.posts.list_on(c, feed, first, Some(me)).unwrap(), database, "{step}: {feed:?}");
        }
    };
    same(&mut c, "read");
    w.db.write_blocking(|c| posts::toggle_like(c, me, old[0]).map(|_| ())).unwrap();
    let statements = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ListenedTo, FeedPage::Offset(Page { limit: 10, offset: 0 }), Some(me));
        assert!(!page.unwrap().is_empty());
    });
    assert_eq!(statements.len(), 1, "only the likes are read again: {statements:#?}");
    same(&mut c, "an older post liked");
    assert!(w.posts.post_on(&mut c, old[0], Some(me)).unwrap().user_liked);
    assert!(!w.posts.post_on(&mut c, old[1], Some(me)).unwrap().user_liked);
    w.db.write_blocking(|c| posts::toggle_like(c, me, old[0]).map(|_| ())).unwrap();
    same(&mut c, "and unliked");
    assert!(!w.posts.post_on(&mut c, old[0], Some(me)).unwrap().user_liked);
}

/// A repost reads again what the reposter did to posts and the post's row, nothing of anyone
/// else's: each viewer's likes and reposts are one piece read in one statement, apart from
/// everyone else's (a repost anywhere once made every viewer read their reposts again).
async fn a_repost_reads_again_only_the_reposters_marks(db: TestDb) {
    let w = world(db);
    let (me, bob, ana) = (w.user("me"), w.user("bob"), w.user("ana"));
    let post = w.song(ana, "passed on").await;
    let mut c = w.db.get().unwrap();
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    let cold = recorded(&mut c, |c| {
        w.posts.list_on(c, Feed::ForYou, first, Some(me)).unwrap();
    });
    let marks = cold.iter().filter(|s| s.contains("FROM likes") || s.contains("FROM reposts")).count();
    assert_eq!(marks, 1, "a viewer's likes and reposts in one statement: {cold:#?}");
    w.posts.list_on(&mut c, Feed::ForYou, first, Some(bob)).unwrap();
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, bob, post).map(|_| ())).unwrap();
    let mine = recorded(&mut c, |c| {
        w.posts.list_on(c, Feed::ForYou, first, Some(me)).unwrap();
    });
    assert_eq!(mine.len(), 1, "the post's row, not my marks: {mine:#?}");
    assert!(mine[0].contains("INNER JOIN") && !mine[0].contains("FROM likes"), "{mine:#?}");
    let found = w.posts.list_on(&mut c, Feed::ForYou, first, Some(bob)).unwrap();
    assert!(found[0].user_reposted && found[0].reposts_count == 1, "{:?}", found[0]);
    assert!(!w.posts.list_on(&mut c, Feed::ForYou, first, Some(me)).unwrap()[0].user_reposted);
}

/// A viewer new to the process costs one statement of their own for their first pages: what
/// they like and reposted and whom they listen to, read together; their Listened to then reads
/// none of it again, and shows what they like as liked.
async fn a_viewers_first_look_is_one_statement(db: TestDb) {
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    let by_ana = w.song(ana, "by ana").await;
    let by_bob = w.song(bob, "by bob").await;
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    w.db.write_blocking(|c| posts::toggle_like(c, me, by_ana).map(drop)).unwrap();
    w.db.write_blocking(|c| posts::reposts::toggle_repost(c, me, by_bob).map(drop)).unwrap();
    let mut c = w.db.get().unwrap();
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    let mine = |s: &&String| {
        let s = s.replace(['"', '`'], "");
        ["FROM likes WHERE", "FROM reposts WHERE user_id", "FROM listens WHERE"].iter().any(|t| s.contains(t))
    };
    let cold = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ForYou, first, Some(me)).unwrap();
        let liked: Vec<bool> = page.iter().map(|p| p.user_liked).collect();
        let reposted: Vec<bool> = page.iter().map(|p| p.user_reposted).collect();
        assert_eq!((liked, reposted), (vec![false, true], vec![true, false]), "bob's, then ana's");
    });
    assert_eq!(cold.iter().filter(mine).count(), 1, "{cold:#?}");
    let listened = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ListenedTo, first, Some(me)).unwrap();
        assert_eq!(page.iter().map(|p| (p.id, p.user_liked)).collect::<Vec<_>>(), vec![(by_ana, true)]);
    });
    assert_eq!(listened.iter().filter(mine).count(), 0, "held from the first look: {listened:#?}");
    // Whom one listens to, read first (the Listened to of someone else new), brings their
    // marks along.
    w.db.write_blocking(|c| social_graph::listen(c, bob, ana)).unwrap();
    w.db.write_blocking(|c| posts::toggle_like(c, bob, by_ana).map(drop)).unwrap();
    let cold = recorded(&mut c, |c| {
        let page = w.posts.list_on(c, Feed::ListenedTo, first, Some(bob)).unwrap();
        assert_eq!(page.iter().map(|p| (p.id, p.user_liked)).collect::<Vec<_>>(), vec![(by_ana, true)]);
        w.posts.list_on(c, Feed::ForYou, first, Some(bob)).unwrap();
    });
    assert_eq!(cold.iter().filter(mine).count(), 1, "{cold:#?}");
}

/// What a viewer did and whom they listen to, read along with their session's check
/// (`Posts::along`, as auth reads it: the column in its own statement): wanted while it is not
/// held, and once found, their pages read none of it again.
async fn a_viewers_look_read_along_their_session_is_held(db: TestDb) {
    #[derive(diesel::QueryableByName)]
    struct Look {
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
        look: Option<String>,
    }
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    let by_ana = w.song(ana, "by ana").await;
    w.song(bob, "by bob").await;
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    w.db.write_blocking(|c| posts::toggle_like(c, me, by_ana).map(drop)).unwrap();
    let along = w.posts.along();
    let column = along.wanted(me).expect("nothing held of a viewer new to the process");
    let mut c = w.db.get().unwrap();
    let seen = w.db.db.changes().seen();
    let mut q = db::Kept::made(format!("SELECT {column} AS look"));
    for _ in 0..column.matches('?').count() {
        q = q.bind::<diesel::sql_types::BigInt, _>(me);
    }
    let read: Look = q.get_result(&mut c).unwrap();
    along.found(me, seen, read.look);
    assert!(along.wanted(me).is_none(), "held now");
    let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
    let pages = recorded(&mut c, |c| {
        let yours = w.posts.list_on(c, Feed::ForYou, first, Some(me)).unwrap();
        assert_eq!(yours.iter().map(|p| p.user_liked).collect::<Vec<_>>(), vec![false, true]);
        let listened = w.posts.list_on(c, Feed::ListenedTo, first, Some(me)).unwrap();
        assert_eq!(listened.iter().map(|p| (p.id, p.user_liked)).collect::<Vec<_>>(), vec![(by_ana, true)]);
    });
    let again: Vec<String> = pages
        .iter()
        .map(|s| s.replace(['"', '`'], ""))
        .filter(|s| {
            ["FROM likes WHERE", "FROM reposts WHERE user_id", "FROM listens WHERE"].iter().any(|t| s.contains(t))
        })
        .collect();
    assert!(again.is_empty(), "{again:#?}");
    // A like of theirs makes it wanted again; what is not understood is not kept.
    w.db.write_blocking(|c| posts::toggle_like(c, me, by_ana).map(drop)).unwrap();
    assert!(along.wanted(me).is_some());
    along.found(bob, w.db.db.changes().seen(), Some("not;a look".into()));
    assert!(along.wanted(bob).is_some());
}

/// A like leaves the post's comments held, and a new post leaves every card of its author held
/// (and what was read with them: the rows of their posts, the comments they wrote): a like
/// reads again only the post's row, a new post only what lists its author's posts. Both once
/// re-read a post's hundred comments, or every post of a commenter who posted (issue 30).
async fn a_like_or_a_new_post_leaves_comments_and_cards_held(db: TestDb) {
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    let post = w.song(ana, "discussed").await;
    let other = w.song(bob, "bob's").await;
    for text in ["one", "two", "three"] {
        w.comment(bob, post, text).await.unwrap();
    }
    let page = Page { limit: 20, offset: 0 };
    let mut c = w.db.get().unwrap();
    let read_both = |c: &mut DbConnection| {
        assert_eq!(w.posts.comments_on(c, post, Some(me), page).unwrap().len(), 3);
        assert!(w.posts.post_on(c, other, Some(me)).is_ok());
    };
    read_both(&mut c);
    assert!(recorded(&mut c, read_both).is_empty(), "held");
    w.db.write_blocking(|c| posts::toggle_like(c, me, post).map(|_| ())).unwrap();
    let after_like = recorded(&mut c, read_both);
    assert_eq!(after_like.len(), 2, "the post's row and the liker's likes, no comment: {after_like:#?}");
    w.song(bob, "bob posts again").await;
    let after_post = recorded(&mut c, read_both);
    assert!(after_post.is_empty(), "bob's comments and bob's post stand: {after_post:#?}");
    assert_eq!(
        w.posts
            .list_on(&mut c, Feed::User(bob), FeedPage::Offset(Page { limit: 10, offset: 0 }), Some(me))
            .unwrap()
            .len(),
        2
    );
}

/// A first page of a music search, as `Posts` answers it (from memory when it can) and as the
/// database does, for a guest, a viewer and a viewer in a block pair, after each kind of write
/// that changes what is found: they must be the same, and a search asked again must have come
/// from memory.
async fn memory_answers_a_search_as_the_database_does(db: TestDb) {
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    let in_title = w.song_by(ana, "River", "Ana", "la la", None).await;
    w.song_by(bob, "Song", "Bob", "down by the river", None).await;
    w.song_by(ana, "Other", "Ana", "la la", Some("river")).await;
    w.song_by(bob, "Nothing", "Bob", "here", None).await;
    let texts = [("river", None, 10), ("riv", None, 2), ("river", Some(values::PostKind::Lyrics), 3), ("la", None, 10)];
    // What memory alone answers (no connection: what a remembered session's search gets) is
    // the database's answer too, before it is read again and after.
    let compare = |step: &str| {
        let mut c = w.db.get().unwrap();
        let mut held = 0;
        for viewer in [None, Some(me), Some(bob)] {
            for (text, kind, limit) in texts {
                let search = Search { text: SearchText::parse(text).unwrap(), kind, before: None, limit };
                let database = posts::search::page(&mut c, &search, viewer).unwrap();
                let what = format!("{step}: {text} {kind:?} {limit} for {viewer:?}");
                if let Some(remembered) = w.posts.remembered_search(&search, viewer) {
                    assert_eq!(remembered, database, "held from before, {what}");
                }
                let answered = w.posts.search_on(&mut c, &search, viewer).unwrap();
                assert_eq!(answered, database, "{what}");
                if let Some(remembered) = w.posts.remembered_search(&search, viewer) {
                    assert_eq!(remembered, database, "held now, {what}");
                    held += 1;
                }
            }
        }
        held
    };
    assert_eq!(compare("written"), 12, "every search held for every viewer in no block pair");
    let mut c = w.db.get().unwrap();
    let again = recorded(&mut c, |c| {
        let search = Search { text: SearchText::parse("river").unwrap(), kind: None, before: None, limit: 10 };
        w.posts.search_on(c, &search, None).unwrap();
        w.posts.search_on(c, &search, Some(me)).unwrap();
    });
    assert!(again.is_empty(), "asked again, answered from memory: {again:#?}");
    let written = w.song_by(ana, "River again", "Ana", "la", None).await;
    // Brought up to date by the post written, as its stamp tells: looked up by its key (on
    // SQLite walked from it), not a walk of the posts made since a moment before the last read.
    let update = recorded(&mut c, |c| {
        let search = Search { text: SearchText::parse("river").unwrap(), kind: None, before: None, limit: 10 };
        w.posts.search_on(c, &search, None).unwrap();
    });
    let searched: Vec<&String> = update.iter().filter(|s| s.contains("posts_search")).collect();
    let from_it = |s: &&String| s.contains(&format!("binds: [{written}")) || s.contains(&format!(", {written}]"));
    assert!(!searched.is_empty() && searched.iter().all(from_it), "{update:#?}");
    compare("a new post named so");
    w.song_by(bob, "Later", "Bob", "the river la", None).await;
    compare("a new post saying so");
    let edit = posts::PostEdit { song_title: Some("Creek".into()), ..Default::default() };
    w.posts.edit(ana, in_title, edit).await.unwrap();
    compare("renamed");
    w.db.write_blocking(|c| posts::toggle_like(c, me, in_title).map(|_| ())).unwrap();
    compare("liked");
    w.db.write_blocking(|c| social_graph::block(c, bob, me)).unwrap();
    assert_eq!(compare("blocked by bob"), 4, "only the guest's searches: me and bob are in a pair");
    w.db.write_blocking(|c| posts::delete_post_rows(c, &[in_title]).map(|_| ())).unwrap();
    compare("deleted");
    suspend(&w, bob);
    compare("bob suspended");
}

/// With more posts than the list of the newest holds (20,000), that list is still held once
/// read: For you and Listened to pages come from memory, not from reading 20,000 rows for each.
async fn a_full_list_of_the_newest_posts_is_held(db: TestDb) {
    let w = world(db);
    let (me, ana) = (w.user("me"), w.user("ana"));
    // Older posts, written straight into the table (their payloads do not matter here).
    let ids: Vec<i64> = (0..20_010).map(|_| PostId::generate().get()).collect();
    w.db.write_blocking(|c| {
        for chunk in ids.chunks(1_000) {
            let rows: Vec<String> =
                chunk.iter().map(|id| format!("({id}, {ana}, 'lyrics', '2026-01-01 00:00:00')")).collect();
            let sql = format!("INSERT INTO posts (id, user_id, kind, created_at) VALUES {}", rows.join(","));
            db::diesel::sql_query(sql).execute(c)?;
        }
        Ok::<_, db::DbError>(())
    })
    .unwrap();
    let newest = [w.song(ana, "one").await, w.song(ana, "two").await, w.song(ana, "three").await];
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    let first = FeedPage::Offset(Page { limit: 3, offset: 0 });
    let mut c = w.db.get().unwrap();
    for feed in [Feed::ForYou, Feed::ListenedTo] {
        let read: Vec<PostId> = w.posts.list_on(&mut c, feed, first, Some(me)).unwrap().iter().map(|p| p.id).collect();
        assert_eq!(read, newest.iter().rev().copied().collect::<Vec<_>>(), "{feed:?}");
        let held = w.posts.remembered_list(feed, first, Some(me)).map(|found| found.len());
        assert_eq!(held, Some(3), "{feed:?} answered from memory");
    }
}

// --- Every statement of a page is answered from an index ------------------------------------

async fn every_statement_of_a_page_is_index_backed(db: TestDb) {
    let w = world(db);
    let (me, ana, bob, cy) = (w.user("me"), w.user("ana"), w.user("bob"), w.user("cy"));
    posts_of_every_kind(&w, ana, 3).await;
    w.db.write_blocking(|c| social_graph::listen(c, me, ana)).unwrap();
    w.db.write_blocking(|c| social_graph::block(c, me, bob)).unwrap();
    let target = w.song(ana, "commented").await;
    w.comment(me, target, "hi @ana").await.unwrap();
    w.comment(cy, target, "from a suspended account").await.unwrap();
    w.song(cy, "hidden").await;
    suspend(&w, cy);
    // Someone Me listens to reposts Ana's newest posts: Listened to reads reposts, and a page
    // below them reads Ana's posts by the walk that leaves reposted ones out.
    let dee = w.user("dee");
    w.db.write_blocking(|c| social_graph::listen(c, me, dee)).unwrap();
    let anas = w.feed(Feed::User(ana), None, FeedPage::Offset(Page { limit: 4, offset: 0 })).await;
    for post in &anas {
        w.db.write_blocking(|c| posts::reposts::toggle_repost(c, dee, post.id)).unwrap();
    }
    let edit = posts::playlists::PlaylistEdit { title: Some("Mix".into()), ..Default::default() };
    let playlist = w.posts.create_playlist(me, edit).await.unwrap().id;
    let audio = w.feed(Feed::User(ana), None, FeedPage::Offset(Page { limit: 20, offset: 0 })).await;
    for post in audio.iter().filter(|p| p.kind() == values::PostKind::Audio) {
        w.posts.add_to_playlist(me, playlist, post.id, 0).await.unwrap();
    }
    let mut c = w.db.get().unwrap();
    let statements = recorded(&mut c, |c| {
        // What pages answered from memory read when they miss (`posts::memory`)...
        let first = FeedPage::Offset(Page { limit: 10, offset: 0 });
        for feed in [Feed::ForYou, Feed::ListenedTo, Feed::User(ana)] {
            w.posts.list_on(c, feed, first, Some(me)).unwrap();
        }
        w.posts.post_on(c, target, Some(me)).unwrap();
        // ... and the database's own queries.
        let newest =
            posts::feed_page(c, Feed::ForYou, FeedPage::Offset(Page { limit: 10, offset: 0 }), Some(me)).unwrap();
        let cursor = FeedPage::Before(Keyset { before: Some(newest[2].id), limit: 10 });
        posts::feed_page(c, Feed::ForYou, cursor, Some(me)).unwrap();
        posts::feed_page(c, Feed::ListenedTo, cursor, Some(me)).unwrap();
        let below_reposts = FeedPage::Before(Keyset { before: PostId::try_from(anas[0].id.get() + 1).ok(), limit: 3 });
        let found = posts::feed_page(c, Feed::ListenedTo, below_reposts, Some(me)).unwrap();
        assert_eq!(found.len(), 3, "the next of Ana's posts, past those reposted above");
        assert!(found.iter().all(|p| p.reposted.is_none() && !anas.iter().any(|a| a.id == p.id)), "{found:?}");
        posts::feed_page(c, Feed::User(ana), FeedPage::Offset(Page { limit: 10, offset: 0 }), None).unwrap();
        posts::find_post(c, target, Some(me)).unwrap();
        posts::comment_page(c, target, Some(me), Page { limit: 20, offset: 0 }).unwrap();
        w.posts.playlist_on(c, playlist, Some(me)).unwrap();
        posts::playlists::of_owner(c, me, Some(me), Keyset { before: None, limit: 20 }).unwrap();
        // Discover's job and its people to listen to.
        posts::discover::find(c).unwrap();
        social_graph::suggestions(c, me, 8).unwrap();
    });
    assert!(statements.len() >= 12, "{statements:#?}");
    assert_index_backed(&mut c, &statements);
}

// --- Finding music ---------------------------------------------------------------------------

impl World {
    /// Titles found for `text` by `viewer`, first page.
    async fn find(&self, text: &str, viewer: Option<UserId>) -> Vec<PostId> {
        self.find_page(text, viewer, None, None, 10).await
    }

    async fn find_page(
        &self,
        text: &str,
        viewer: Option<UserId>,
        kind: Option<values::PostKind>,
        before: Option<PostId>,
        limit: i64,
    ) -> Vec<PostId> {
        let Some(text) = SearchText::parse(text) else { return Vec::new() };
        let search = Search { text, kind, before, limit };
        let posts = self.posts.clone();
        let mut c = self.db.get().unwrap();
        posts.search_on(&mut c, &search, viewer).unwrap().iter().map(|p| p.id).collect()
    }

    async fn song_by(&self, by: UserId, title: &str, artist: &str, lyrics: &str, caption: Option<&str>) -> PostId {
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        let input = LyricsInput {
            song_title: Some(title.into()),
            artist_name: Some(artist.into()),
            parts: vec![LyricsPartInput { part_type: Some("verse".into()), lyrics: Some(lyrics.into()) }],
            caption: caption.map(str::to_owned),
        };
        self.posts.create_lyrics(by, input).await.unwrap().id
    }
}

/// Every word a post holds finds it, as a word or the start of one, whatever its accents and
/// case; all the words typed must be there; the index follows an edit, a deletion, a deleted
/// account, and the kinds written past the application (the seeder's rows).
async fn search_finds_posts_by_every_word_they_hold(db: TestDb) {
    let w = world(db);
    let (ana, bob) = (w.user("ana"), w.user("bob"));
    let song = w
        .song_by(ana, "Moonlight Serenade", "Dvořák Ensemble", "walking under the golden sky", Some("first take"))
        .await;
    for text in [
        "moonlight",
        "MOONL",
        "mo",
        "serenade moon",
        "dvorak",
        "DVOŘÁK",
        "Dvořá",
        "golden sky",
        "first take",
        "ensemble walking",
    ] {
        assert_eq!(w.find(text, None).await, vec![song], "{text}");
    }
    for text in ["golden rain", "moonbeam", "walks", "golden ski", "", "  !! "] {
        assert!(w.find(text, None).await.is_empty(), "{text}");
    }
    // A last word longer than six letters is found by its first six: a word typed on.
    assert_eq!(w.find("serenades", None).await, vec![song]);
    // An edit is found by its new words only.
    let edit = posts::PostEdit { song_title: Some("Sunrise Waltz".into()), ..Default::default() };
    w.posts.edit(ana, song, edit).await.unwrap();
    assert!(w.find("moonlight", None).await.is_empty());
    assert_eq!(w.find("sunrise waltz", None).await, vec![song]);
    // Tracks and scores, as the seeder writes them: their titles, artists and composers.
    posts_of_every_kind(&w, bob, 1).await;
    assert_eq!(posts::search::index_missing(&mut w.db.get().unwrap()).unwrap(), 3);
    assert_eq!(posts::search::index_missing(&mut w.db.get().unwrap()).unwrap(), 0, "each post once");
    let track = w.find_page("t", None, Some(values::PostKind::Audio), None, 10).await;
    let score = w.find_page("c", None, Some(values::PostKind::MusicXml), None, 10).await;
    assert_eq!((track.len(), score.len()), (1, 1));
    assert!(w.find_page("sunrise", None, Some(values::PostKind::Audio), None, 10).await.is_empty(), "by kind");
    // Deleted, alone or with its account.
    w.posts.delete(ana, song).await.unwrap();
    assert!(w.find("sunrise", None).await.is_empty());
    let lyrics_by_bob = w.find("lyrics", None).await;
    assert_eq!(lyrics_by_bob.len(), 1);
    w.db.write_blocking(|conn| {
        posts::release_account(conn, bob)?;
        db::diesel::delete(users::table.filter(users::id.eq(bob))).execute(conn)?;
        Ok::<_, PostError>(())
    })
    .unwrap();
    assert!(w.find("lyrics", None).await.is_empty());
    let left: i64 = db::diesel::sql_query("SELECT count(*) AS n FROM posts_search")
        .get_result::<Count>(&mut w.db.get().unwrap())
        .unwrap()
        .n;
    assert_eq!(left, 0, "no entry outlives its post");
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = db::diesel::sql_types::BigInt)]
    n: i64,
}

/// Search follows the rules of every list: nothing of a person in a block pair with the viewer,
/// nothing of a suspended person.
async fn search_hides_what_every_list_hides(db: TestDb) {
    let w = world(db);
    let (me, ana, bob, cy) = (w.user("me"), w.user("ana"), w.user("bob"), w.user("cy"));
    let anas = w.song_by(ana, "River Song", "Ana", "la", None).await;
    let bobs = w.song_by(bob, "River Song", "Bob", "la", None).await;
    let cys = w.song_by(cy, "River Song", "Cy", "la", None).await;
    w.db.write_blocking(|c| social_graph::block(c, bob, me)).unwrap();
    suspend(&w, cy);
    assert_eq!(w.find("river", Some(me)).await, vec![anas]);
    assert_eq!(w.find("river", Some(ana)).await, vec![bobs, anas]);
    assert_eq!(w.find("river", None).await, vec![bobs, anas]);
    let _ = cys;
}

/// Where a next page starts (`before`) tells nothing of a post the viewer may not see: a hidden
/// post as `before` starts the page at the same place whatever it is called. Walking a hidden
/// title letter by letter through `before` once spelled it out (docs/security.md).
async fn a_search_cursor_tells_nothing_of_a_post_the_viewer_may_not_see(db: TestDb) {
    let w = world(db);
    let (me, ana, bob, cy) = (w.user("me"), w.user("ana"), w.user("bob"), w.user("cy"));
    let named = w.song_by(ana, "Kestrel Song", "Ana", "la", None).await;
    let said = w.song_by(ana, "Other", "Ana", "a kestrel flew", None).await;
    // Two hidden posts side by side, one called what is searched for and one not: bob's from
    // me (he blocks me), cy's from everyone (she is suspended).
    let bobs = [w.song_by(bob, "Kestrel", "Bob", "la", None).await, w.song_by(bob, "Sparrow", "Bob", "la", None).await];
    let cys = [w.song_by(cy, "Kestrel", "Cy", "la", None).await, w.song_by(cy, "Sparrow", "Cy", "la", None).await];
    w.db.write_blocking(|c| social_graph::block(c, bob, me)).unwrap();
    suspend(&w, cy);
    for (viewer, hidden) in [(Some(me), bobs), (None, cys)] {
        for text in ["kestrel", "kest", "k", "sparrow", "spa", "la"] {
            let pages = [
                w.find_page(text, viewer, None, Some(hidden[0]), 10).await,
                w.find_page(text, viewer, None, Some(hidden[1]), 10).await,
            ];
            assert_eq!(pages[0], pages[1], "{text}: the same start after either hidden post");
        }
        // Such a page goes on among the posts that only say the words.
        assert_eq!(w.find_page("kestrel", viewer, None, Some(hidden[0]), 10).await, vec![said]);
    }
    // A post the viewer sees keeps its place: after the one named so, the rest.
    assert_eq!(w.find("kestrel", Some(me)).await, vec![named, said]);
    assert_eq!(w.find_page("kestrel", Some(me), None, Some(named), 10).await, vec![said]);
}

/// No words are query syntax on either backend, whatever `unaccent` (PostgreSQL) makes of
/// their letters: some letters become quotes, colons or brackets ("ʻ" → "'", "ŉ" → "'n",
/// "⑴" → "(1)"), and such a search once failed. On PostgreSQL every letter `unaccent` rewrites
/// is searched, as a whole word and as the start of one; on SQLite every letter below U+3000.
async fn no_letter_is_query_syntax(db: TestDb) {
    let w = world(db);
    let ana = w.user("ana");
    let uke = w.song_by(ana, "ʻUkulele Nights", "Ana", "rock ŉ roll ⑴", None).await;
    for text in ["ʻukulele", "ʻukul", "rock ŉ roll", "⑴", "nightsː"] {
        assert_eq!(w.find(text, None).await, vec![uke], "{text}");
    }
    let letters: Vec<char> = (0x80..0x3000).filter_map(char::from_u32).filter(|c| c.is_alphanumeric()).collect();
    let letters = match &mut *w.db.get().unwrap() {
        DbConnection::Sqlite(_) => letters,
        DbConnection::Postgres(c) => {
            #[derive(QueryableByName)]
            struct Letter {
                #[diesel(sql_type = db::diesel::sql_types::Text)]
                c: String,
            }
            let every: Vec<String> =
                (0x80..0x30000).filter_map(char::from_u32).filter(|c| c.is_alphanumeric()).map(String::from).collect();
            let rewritten: Vec<Letter> =
                db::diesel::sql_query("SELECT c FROM unnest($1::text[]) c WHERE unaccent(c) <> c")
                    .bind::<db::diesel::sql_types::Array<db::diesel::sql_types::Text>, _>(every)
                    .load(c)
                    .unwrap();
            assert!(rewritten.len() > 500, "unaccent rewrites {} letters", rewritten.len());
            rewritten.iter().filter_map(|l| l.c.chars().next()).collect()
        }
    };
    for c in letters {
        // Panics (`find_page` unwraps) if the database refused the query.
        w.find(&format!("{c}a b{c}"), None).await;
        w.find(&format!("{c}"), None).await;
    }
}

/// On PostgreSQL a search runs for at most `SEARCH_TIME_LIMIT_MS`: past it, a clear refusal,
/// and the connection goes back to the pool as it was. (The test makes the query slow by
/// making the database's own query builder sleep; SQLite walks its index in order and has no
/// such bound.)
async fn a_search_that_runs_too_long_is_refused(db: TestDb) {
    let w = world(db);
    let ana = w.user("ana");
    let song = w.song_by(ana, "Lantern", "Ana", "la", None).await;
    let mut c = w.db.get().unwrap();
    let search = Search { text: SearchText::parse("lantern").unwrap(), kind: None, before: None, limit: 10 };
    let DbConnection::Postgres(pg) = &mut *c else {
        assert_eq!(w.posts.search_on(&mut c, &search, None).unwrap().len(), 1);
        return;
    };
    let slow = format!(
        "ALTER FUNCTION search_query(text, text, boolean) RENAME TO search_query_quick; \
         CREATE FUNCTION search_query(whole text, start text, names boolean) RETURNS tsquery \
         LANGUAGE sql VOLATILE AS $$ SELECT pg_sleep({}); SELECT search_query_quick(whole, start, names) $$",
        f64::from(posts::search::SEARCH_TIME_LIMIT_MS) * 2.0 / 1000.0
    );
    db::diesel::connection::SimpleConnection::batch_execute(pg, &slow).unwrap();
    let refused = w.posts.search_on(&mut c, &search, None);
    assert!(matches!(refused, Err(PostError::SearchTooCostly)), "{refused:?}");
    assert_eq!(
        values::DomainError::kind(&PostError::SearchTooCostly),
        values::ErrorKind::Invalid,
        "a 400 that says why"
    );
    let DbConnection::Postgres(pg) = &mut *c else { unreachable!() };
    db::diesel::connection::SimpleConnection::batch_execute(
        pg,
        "DROP FUNCTION search_query(text, text, boolean); \
         ALTER FUNCTION search_query_quick(text, text, boolean) RENAME TO search_query; \
         SELECT pg_sleep(0.6)",
    )
    .unwrap(); // would time out if the search's limit had stayed on the connection
    assert_eq!(w.posts.search_on(&mut c, &search, None).unwrap().iter().map(|p| p.id).collect::<Vec<_>>(), [song]);
}

/// What a post is called counts more than what it says; each group comes newest first; the
/// pages walk every match once, across the two groups, and a word typed halfway counts.
async fn search_ranks_names_first_and_pages_through_every_match(db: TestDb) {
    let w = world(db);
    let ana = w.user("ana");
    let in_words = w.song_by(ana, "Song", "Ana", "down by the river", None).await;
    let in_title = w.song_by(ana, "River", "Ana", "la la", None).await;
    let in_caption = w.song_by(ana, "Other", "Ana", "la la", Some("river")).await;
    assert_eq!(w.find("river", None).await, vec![in_title, in_caption, in_words]);
    assert_eq!(w.find("riv", None).await, vec![in_title, in_caption, in_words], "the last word may be a start");
    assert!(w.find("riv la", None).await.is_empty(), "a word before the last is a whole word");

    // Many more matches, written straight into the tables (more than PostgreSQL walks by key
    // before it asks the full-text index): every seventh names the river.
    let extra = 5_100;
    {
        let mut c = w.db.get().unwrap();
        w.db.write_blocking(|c| {
            for i in 0..extra {
                let id = PostId::generate();
                db::diesel::insert_into(post_table::table)
                    .values((
                        post_table::id.eq(id),
                        post_table::user_id.eq(ana),
                        post_table::kind.eq("lyrics"),
                        post_table::created_at.eq(db::time::now()),
                    ))
                    .execute(c)?;
                let title = if i % 7 == 0 { format!("River {i}") } else { format!("Tune {i}") };
                db::diesel::sql_query("INSERT INTO post_lyrics (post_id, title, artist, parts) VALUES ($1, $2, 'Ana', '[{\"type\":\"verse\",\"lyrics\":\"the river\"}]')")
                    .bind::<db::diesel::sql_types::BigInt, _>(id)
                    .bind::<db::diesel::sql_types::Text, _>(title)
                    .execute(c)?;
            }
            Ok::<_, db::DbError>(())
        })
        .unwrap();
        posts::search::index_missing(&mut c).unwrap();
    }
    let total = extra + 3;
    let mut seen: Vec<PostId> = Vec::new();
    let mut before = None;
    loop {
        // Pages of 47: some straddle the two groups, and the newest posts and the older.
        let page = w.find_page("river", None, None, before, 47).await;
        if page.is_empty() {
            break;
        }
        before = page.last().copied();
        seen.extend(page);
        assert!(seen.len() <= total, "no page repeats a post");
    }
    let unique: std::collections::HashSet<_> = seen.iter().collect();
    assert_eq!((seen.len(), unique.len()), (total, total), "every match once");
    // Those naming the river first, newest first; then the rest, newest first.
    let mut c = w.db.get().unwrap();
    let titles: std::collections::HashMap<PostId, String> = db::schema::post_lyrics::table
        .select((db::schema::post_lyrics::post_id, db::schema::post_lyrics::title))
        .load::<(PostId, String)>(&mut c)
        .unwrap()
        .into_iter()
        .collect();
    let names: Vec<bool> = seen.iter().map(|id| titles[id].starts_with("River")).collect();
    let named = names.iter().filter(|n| **n).count();
    assert_eq!(named, extra.div_ceil(7) + 1, "the titled ones and the song called River");
    assert!(names[..named].iter().all(|n| *n) && names[named..].iter().all(|n| !*n), "{names:?}");
    assert!(seen[..named].windows(2).all(|p| p[0] > p[1]) && seen[named..].windows(2).all(|p| p[0] > p[1]));
}

/// A page of results costs a few statements whatever its length, each index-backed.
async fn a_search_page_costs_a_few_statements_whatever_its_length(db: TestDb) {
    let w = world(db);
    let (me, ana, bob) = (w.user("me"), w.user("ana"), w.user("bob"));
    posts_of_every_kind(&w, ana, 12).await;
    posts::search::index_missing(&mut w.db.get().unwrap()).unwrap();
    w.db.write_blocking(|c| social_graph::block(c, me, bob)).unwrap();
    let mut c = w.db.get().unwrap();
    // What memory holds of the viewer (everyone suspended, their block pairs: being in one,
    // their searches are the database's), read once and not counted.
    let warm = Search { text: SearchText::parse("warm").unwrap(), kind: None, before: None, limit: 1 };
    w.posts.search_on(&mut c, &warm, Some(me)).unwrap();
    // And what they like and reposted (a post of another's they read, none of the results).
    let other = w.song(ana, "warm up").await;
    w.posts.post_on(&mut c, other, Some(me)).unwrap();
    let mut seen = Vec::new();
    // "t" titles every track and every score: 24 posts of two kinds.
    for limit in [1, 10, 40] {
        let search = Search { text: SearchText::parse("t").unwrap(), kind: None, before: None, limit };
        let (found, statements) = counted(&mut c, |c| w.posts.search_on(c, &search, Some(me)).unwrap());
        assert_eq!(found.len() as i64, limit.min(24));
        seen.push(statements);
    }
    // A page the first group fills: its walk, then its posts as memory puts them together (their
    // rows, one statement per kind of payload); one it does not fill walks the second group too.
    // On PostgreSQL each walk first finds where its walk by key ends (here, fewer posts than
    // that: no walk by the full-text index follows), and the page's time limit is set and reset
    // around it (two more).
    let expected = if matches!(&mut *c, DbConnection::Postgres(_)) { [6, 7, 9] } else { [3, 4, 5] };
    assert_eq!(seen, expected, "{seen:?}");
    let search = Search { text: SearchText::parse("t").unwrap(), kind: None, before: None, limit: 10 };
    let first = w.posts.search_on(&mut c, &search, Some(me)).unwrap();
    let next = Search { before: first.last().map(|p| p.id), ..search };
    let (found, statements) = counted(&mut c, |c| w.posts.search_on(c, &next, Some(me)).unwrap());
    let floor = usize::from(matches!(&mut *c, DbConnection::Postgres(_)));
    assert_eq!(
        (found.len(), statements),
        (10, 2 + 3 * floor),
        "the probe and the walk; the posts all in memory (read with the pages before)"
    );
    // With the newest posts held, PostgreSQL's walk takes its floor from them: one fewer.
    let one = Search { text: SearchText::parse("t").unwrap(), kind: None, before: None, limit: 1 };
    let (_, cold) = counted(&mut c, |c| w.posts.search_on(c, &one, Some(me)).unwrap());
    w.posts.list_on(&mut c, Feed::ForYou, FeedPage::Offset(Page { limit: 10, offset: 0 }), Some(me)).unwrap();
    let (_, held) = counted(&mut c, |c| w.posts.search_on(c, &one, Some(me)).unwrap());
    assert_eq!(held, cold - floor, "the floor of the walk from memory");
    let statements = recorded(&mut c, |c| {
        for (text, kind) in [("lyrics", None), ("t", Some(values::PostKind::Audio)), ("c a", None)] {
            let search = Search { text: SearchText::parse(text).unwrap(), kind, before: None, limit: 10 };
            w.posts.search_on(c, &search, Some(me)).unwrap();
        }
    });
    assert_index_backed(&mut c, &statements);
}

test_support::both_backends!(
    search_finds_posts_by_every_word_they_hold,
    search_hides_what_every_list_hides,
    a_search_cursor_tells_nothing_of_a_post_the_viewer_may_not_see,
    no_letter_is_query_syntax,
    a_search_that_runs_too_long_is_refused,
    search_ranks_names_first_and_pages_through_every_match,
    a_search_page_costs_a_few_statements_whatever_its_length,
    memory_answers_every_page_as_the_database_does,
    memory_answers_as_the_database_with_too_many_block_pairs_to_hold,
    a_new_post_reads_only_what_is_new,
    a_new_repost_reads_only_what_is_new,
    a_like_reads_again_only_the_likers_likes,
    a_repost_reads_again_only_the_reposters_marks,
    a_viewers_first_look_is_one_statement,
    a_viewers_look_read_along_their_session_is_held,
    a_like_or_a_new_post_leaves_comments_and_cards_held,
    memory_answers_a_search_as_the_database_does,
    a_full_list_of_the_newest_posts_is_held,
    every_statement_of_a_page_is_index_backed,
    a_suspended_persons_posts_and_comments_are_hidden,
    a_lyrics_post_is_listed_with_its_payload_and_counted,
    feeds_page_newest_first_by_offset_and_by_cursor,
    listened_to_shows_only_the_people_one_listens_to,
    listened_to_is_the_same_whichever_walk_it_takes,
    listened_to_from_memory_reaches_each_persons_hundredth_post,
    listened_to_past_the_reposts_held_asks_the_database,
    listened_to_past_a_persons_reposts_held_asks_the_database,
    a_blocked_pair_never_sees_each_others_posts,
    a_like_toggles_and_counts_once,
    comments_resolve_mentions_and_count,
    the_mention_picker_leaves_out_blocked_people_and_oneself,
    only_the_author_deletes_a_post_and_everything_on_it_goes,
    a_deleted_account_gives_back_its_likes_and_comments,
    a_page_costs_the_same_statements_whatever_its_length,
    a_playlist_page_costs_the_same_statements_whatever_its_length,
    discovers_job_runs_once_for_requests_arriving_together,
    tags_of_posts_written_before_tags_are_backfilled_once,
    moments_cost_the_same_statements_however_many,
    a_page_read_again_is_not_prepared_again,
    writes_are_not_prepared_again,
    listened_to_pages_right_across_the_floor_of_the_merge,
);
