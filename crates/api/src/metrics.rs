//! `GET /metrics` in the Prometheus text format (OpenMetrics 1.0, which Prometheus reads), served
//! on an address of its own (`SELFSOUND_METRICS_BIND`) and off unless it is set: the public
//! address never shows it. What is counted, and why each metric is shaped as it is, is in
//! docs/operations.md ("Observability").
//!
//! - Requests are counted, and timed, by route *pattern* (`/posts/{post_id}/like`), never by the
//!   raw path: a label value per post id would grow without bound. Methods outside the standard
//!   few count as `other`, for the same reason.
//! - A 429 is counted by the name of the limit it is for ([`crate::error::ApiError::limit`]).
//! - What exists at a moment (pool connections, calls waiting, uploads in flight, live streams)
//!   is read when Prometheus scrapes ([`Now`]), so nothing has to be kept in step.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{App, HttpResponse, HttpServer, web};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use crate::error::ApiError;
use crate::state::AppState;

/// The route label of a request no route matched (a 404 from the default service).
pub const UNMATCHED: &str = "unmatched";

/// What `/metrics` answers with.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Request latency buckets, in seconds: a page is a few milliseconds, an upload may take minutes.
const LATENCY_BUCKETS: [f64; 13] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0];

/// Pool wait buckets, in seconds: no wait is tens of microseconds; the pool gives up at 10 s.
const WAIT_BUCKETS: [f64; 10] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 2.0, 10.0];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LimitLabels {
    limit: &'static str,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// The registry and the metrics that requests move.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Histograms<RouteLabels>,
    throttled: Family<LimitLabels, Counter>,
}

/// Put in the app's data: the middleware ([`track`]) counts when it holds metrics.
#[derive(Clone, Default)]
pub struct Tracker(pub Option<Arc<Metrics>>);

impl Metrics {
    /// A registry for the app of `state`; from now on the pool reports its waits to it.
    pub fn new(state: &AppState) -> Arc<Metrics> {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "selfsound_http_requests",
            "HTTP requests answered, by method, route pattern and status",
            requests.clone(),
        );
        let latency: Histograms<RouteLabels> = Family::new_with_constructor(|| Histogram::new(LATENCY_BUCKETS));
        registry.register(
            "selfsound_http_request_duration_seconds",
            "Time from a request's arrival to its answer's head, by method and route pattern",
            latency.clone(),
        );
        let throttled = Family::<LimitLabels, Counter>::default();
        registry.register(
            "selfsound_http_throttled",
            "Requests refused with 429, by the limit they met (a SELFSOUND_WRITE_LIMITS name, uploads, or auth)",
            throttled.clone(),
        );
        let waits = Histogram::new(WAIT_BUCKETS);
        registry.register(
            "selfsound_db_pool_wait_seconds",
            "Time each database call waited for a pooled connection",
            waits.clone(),
        );
        let timeouts = Counter::<u64>::default();
        registry.register(
            "selfsound_db_pool_timeouts",
            "Database calls that got no connection (the pool's wait ran out, or none could be opened)",
            timeouts.clone(),
        );
        let observed = state.db.observe_waits(move |waited, got| {
            waits.observe(waited.as_secs_f64());
            if !got {
                timeouts.inc();
            }
        });
        if !observed {
            tracing::warn!(
                "the database pool already reports its waits elsewhere; selfsound_db_pool_wait_seconds stays empty"
            );
        }
        registry.register_collector(Box::new(Now {
            db: state.db.clone(),
            jobs: state.jobs.clone(),
            uploads: state.uploads.clone(),
            inbox: state.inbox.clone(),
            notifications: state.notifications.clone(),
            posts: state.posts.clone(),
        }));
        Arc::new(Metrics { registry, requests, latency, throttled })
    }

    /// The metrics as Prometheus reads them.
    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)?;
        Ok(text)
    }

    fn record(&self, method: &'static str, route: String, status: u16, took: Duration, limit: Option<&'static str>) {
        self.latency.get_or_create(&RouteLabels { method, route: route.clone() }).observe(took.as_secs_f64());
        self.requests.get_or_create(&RequestLabels { method, route, status }).inc();
        if status == 429 {
            self.throttled.get_or_create(&LimitLabels { limit: limit.unwrap_or("auth") }).inc();
        }
    }
}

/// A bounded label for a method: clients may send any token there.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Counts and times every request of the app (the outermost middleware, so refusals made by
/// the others are counted too). Does nothing when metrics are off.
pub async fn track(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let Some(metrics) = req.app_data::<Tracker>().and_then(|t| t.0.clone()) else {
        return next.call(req).await;
    };
    let started = Instant::now();
    let method = method_label(req.method());
    let route = req.match_pattern().unwrap_or_else(|| UNMATCHED.to_owned());
    let outcome = next.call(req).await;
    let limit_of = |e: &actix_web::Error| e.as_error::<ApiError>().and_then(ApiError::limit);
    let (status, limit) = match &outcome {
        Ok(res) => (res.status(), res.response().error().and_then(limit_of)),
        Err(e) => (e.as_response_error().status_code(), limit_of(e)),
    };
    metrics.record(method, route, status.as_u16(), started.elapsed(), limit);
    outcome
}

/// What exists at the moment of a scrape, read then.
struct Now {
    db: db::Db,
    jobs: Arc<crate::jobs::JobCounts>,
    uploads: crate::upload_slots::UploadSlots,
    inbox: crate::slots::Slots<String>,
    notifications: notifications::Notifications,
    posts: posts::Posts,
}

impl std::fmt::Debug for Now {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Now")
    }
}

fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: u64) -> Result<(), std::fmt::Error> {
    let gauge = ConstGauge::new(i64::try_from(value).unwrap_or(i64::MAX));
    gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
}

impl Collector for Now {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let pool = self.db.pool_state();
        let e = &mut encoder;
        gauge(
            e,
            "selfsound_db_pool_connections",
            "Database connections open (in use or idle)",
            pool.connections.into(),
        )?;
        gauge(e, "selfsound_db_pool_idle_connections", "Database connections open and idle", pool.idle.into())?;
        gauge(
            e,
            "selfsound_db_pool_max_connections",
            "The most database connections the pool opens",
            pool.max_size.into(),
        )?;
        gauge(e, "selfsound_db_pool_waiting", "Database calls waiting for a pooled connection now", pool.waiting)?;
        gauge(
            e,
            "selfsound_db_calls_queued",
            "Database calls handed to a blocking thread that has not started them yet (the blocking-thread queue)",
            pool.queued,
        )?;
        let (uploads, bound) = self.uploads.in_flight();
        gauge(e, "selfsound_uploads_in_flight", "Uploads being read now", uploads as u64)?;
        gauge(e, "selfsound_uploads_max", "The most uploads read at once (SELFSOUND_UPLOADS_IN_FLIGHT)", bound as u64)?;
        let (activities, _) = self.inbox.in_flight();
        gauge(e, "selfsound_inbox_in_flight", "Activities of other servers being received now", activities as u64)?;
        let streams = self.notifications.streams().open_total();
        gauge(e, "selfsound_live_streams_open", "Live notification streams open in this process", streams as u64)?;
        let finds = ConstCounter::new(self.posts.discover_finds());
        finds.encode(e.encode_descriptor(
            "selfsound_discover_finds",
            "Times Discover's job ran in this process",
            None,
            finds.metric_type(),
        )?)?;
        let queue = self.jobs.figures();
        gauge(
            e,
            "selfsound_jobs_queued",
            "Background jobs waiting (due or not), in all processes",
            queue.queued as u64,
        )?;
        gauge(e, "selfsound_jobs_running", "Background jobs leased to a process now", queue.running as u64)?;
        gauge(
            e,
            "selfsound_jobs_failed",
            "Background jobs given up on (selfsound jobs lists them; selfsound jobs retry queues them again)",
            queue.failed as u64,
        )?;
        let oldest = ConstGauge::new(queue.oldest_seconds);
        oldest.encode(e.encode_descriptor(
            "selfsound_jobs_oldest_age_seconds",
            "Seconds since the oldest waiting or running job was queued",
            None,
            oldest.metric_type(),
        )?)?;
        for (name, help, n) in [
            ("selfsound_jobs_done", "Background jobs this process finished", &self.jobs.done),
            ("selfsound_jobs_failures", "Tries of background jobs that failed in this process", &self.jobs.failures),
        ] {
            let counted = ConstCounter::new(n.load(std::sync::atomic::Ordering::Relaxed));
            counted.encode(e.encode_descriptor(name, help, None, counted.metric_type())?)?;
        }
        Ok(())
    }
}

async fn scrape(metrics: web::Data<Metrics>) -> HttpResponse {
    match metrics.render() {
        Ok(text) => {
            HttpResponse::Ok().content_type(CONTENT_TYPE).insert_header(("Cache-Control", "no-store")).body(text)
        }
        Err(e) => {
            tracing::error!(error = %e, "metrics could not be written");
            HttpResponse::InternalServerError().finish()
        }
    }
}

/// Serves `GET /metrics` on `addr`, on one worker thread of its own. It stops with the
/// process: the app's server handles the signals and its end ends `serve`.
pub fn serve(metrics: Arc<Metrics>, addr: SocketAddr) -> std::io::Result<Server> {
    let data = web::Data::from(metrics);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .route("/metrics", web::get().to(scrape))
            .default_service(web::to(HttpResponse::NotFound))
    })
    .workers(1)
    .disable_signals()
    .shutdown_timeout(1)
    .bind(addr)?
    .run();
    tracing::info!(%addr, "metrics are served at http://{addr}/metrics");
    Ok(server)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_are_a_bounded_label() {
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        let made_up = Method::from_bytes(b"BREW").unwrap_or(Method::TRACE);
        assert_eq!(method_label(&made_up), "other");
    }
}
