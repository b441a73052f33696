//! Bodies must keep arriving. actix bounds the time to send a request's head; this bounds the
//! body: a JSON (or any non-upload) body must be complete within the request timeout, and an
//! upload may take as long as it needs but may not stall for longer than that between chunks.
//! A client that trickles bytes to hold a connection and its buffers gets a 4xx instead.

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
    let timed = Timed { inner, idle, deadline, timer: Box::pin(tokio::time::sleep(idle)), done: false };
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
}

impl Timed {
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
                let next = this.next_wake();
                this.timer.as_mut().reset(next);
                Poll::Ready(Some(item))
            }
            Poll::Ready(None) => {
                this.done = true;
                Poll::Ready(None)
            }
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.done = true;
                    let e = std::io::Error::new(std::io::ErrorKind::TimedOut, "the request body stopped arriving");
                    Poll::Ready(Some(Err(PayloadError::Io(e))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
