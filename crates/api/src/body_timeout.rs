//! Bodies must keep arriving. actix bounds the time to send a request's head; this bounds the
//! body: a JSON (or any non-upload) body must be complete within the request timeout, and an
//! upload may take as long as it needs but may not stall for longer than that between chunks,
//! and once that long has passed must have averaged at least [`MIN_UPLOAD_RATE`]. A client that
//! trickles bytes to hold a connection and its buffers gets a 4xx instead.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, web};
use bytes::Bytes;
use futures_util::Stream;
use tokio::time::{Instant, Sleep};

use crate::state::AppState;

/// The slowest average an upload may keep, after its first request-timeout's worth of time:
/// 100 MB still has three hours at this rate; a client sending a byte every few seconds to hold
/// a connection and an upload slot does not.
pub const MIN_UPLOAD_RATE: u64 = 10 * 1024;

pub async fn limit_body_time(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    // Most requests (every GET) carry no body: nothing to time.
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).is_some_and(|v| v.trim() != "0");
    if !has_body {
        return next.call(req).await;
    }
    let idle = req.app_data::<web::Data<AppState>>().map_or(Duration::from_secs(30), |s| s.config.request_timeout);
    let upload = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.trim_start().to_ascii_lowercase().starts_with("multipart/"));
    let deadline = (!upload).then(|| Instant::now() + idle);
    let inner = req.take_payload();
    let timed = Timed {
        inner,
        idle,
        deadline,
        timer: Box::pin(tokio::time::sleep(idle)),
        done: false,
        started: Instant::now(),
        received: 0,
    };
    req.set_payload(Payload::from(Box::pin(timed) as Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>>));
    next.call(req).await
}

/// The payload, failing once a chunk takes longer than `idle` or the body outlasts `deadline`.
struct Timed {
    inner: Payload,
    idle: Duration,
    deadline: Option<Instant>,
    timer: Pin<Box<Sleep>>,
    done: bool,
    started: Instant,
    /// Bytes received so far.
    received: u64,
}

impl Timed {
    /// Whether the body has kept the minimum average rate (checked once `idle` has passed).
    fn fast_enough(&self) -> bool {
        let elapsed = self.started.elapsed();
        elapsed <= self.idle || u128::from(self.received) * 1000 >= u128::from(MIN_UPLOAD_RATE) * elapsed.as_millis()
    }

    fn fail(&mut self, why: &str) -> Poll<Option<Result<Bytes, PayloadError>>> {
        self.done = true;
        let e = std::io::Error::new(std::io::ErrorKind::TimedOut, why.to_owned());
        Poll::Ready(Some(Err(PayloadError::Io(e))))
    }

    /// When the next chunk must have arrived by.
    fn next_wake(&self) -> Instant {
        let next = Instant::now() + self.idle;
        self.deadline.map_or(next, |d| d.min(next))
    }
}

impl Stream for Timed {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(Some(item)) => {
                if let Ok(chunk) = &item {
                    this.received += chunk.len() as u64;
                }
                if !this.fast_enough() {
                    return this.fail("the request body is arriving too slowly");
                }
                let next = this.next_wake();
                this.timer.as_mut().reset(next);
                Poll::Ready(Some(item))
            }
            Poll::Ready(None) => {
                this.done = true;
                Poll::Ready(None)
            }
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => this.fail("the request body stopped arriving"),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
