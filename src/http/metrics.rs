//! Prometheus metrics: requests by route and status, solve times, in-flight and shed work,
//! and requests refused by the rate limit or for want of a key (never the keys themselves).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::prometheus_text;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The route label of requests that matched no route.
const UNMATCHED: &str = "unmatched";

/// Labels of one request series.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

/// Labels of one listening address's connection series.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ListenerLabels {
    listener: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BuildLabels {
    version: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// Every metric the service exports, each registered once in its own registry.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: HistogramFamily<RequestLabels>,
    solve_seconds: Histogram,
    solves_in_flight: Gauge,
    overloaded: Counter,
    rate_limited: Counter,
    unauthorized: Counter,
    public_connections: ConnectionCounters,
    admin_connections: ConnectionCounters,
}

/// The connection counts of one listening address; clones share the counts.
#[derive(Debug, Clone, Default)]
pub struct ConnectionCounters {
    /// Connections open now.
    pub open: Gauge,
    /// Connections turned away at the cap: closed at once, or answered 503 past it.
    pub refused: Counter,
    /// Connections closed because their client took none of an answer for the write
    /// timeout.
    pub write_stalled: Counter,
    /// Connections closed before their first byte to make room for a new one at the cap.
    pub evicted: Counter,
}

impl ConnectionCounters {
    /// The counters of the address named `listener`, registered in three families.
    fn registered(
        listener: &str,
        open: &Family<ListenerLabels, Gauge>,
        refused: &Family<ListenerLabels, Counter>,
        write_stalled: &Family<ListenerLabels, Counter>,
        evicted: &Family<ListenerLabels, Counter>,
    ) -> ConnectionCounters {
        let labels = ListenerLabels {
            listener: listener.to_owned(),
        };
        ConnectionCounters {
            open: open.get_or_create(&labels).clone(),
            refused: refused.get_or_create(&labels).clone(),
            write_stalled: write_stalled.get_or_create(&labels).clone(),
            evicted: evicted.get_or_create(&labels).clone(),
        }
    }
}

fn latency_histogram() -> Histogram {
    // 50 µs to ~1.6 s in doubling steps: solves are micro- to milliseconds.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 16))
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// A fresh set of metrics with build info filled in.
    pub fn new() -> Metrics {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route and status",
            requests.clone(),
        );
        let request_seconds: HistogramFamily<RequestLabels> =
            Family::new_with_constructor(latency_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request, by method, route and status",
            request_seconds.clone(),
        );
        let solve_seconds = latency_histogram();
        registry.register(
            "solver_duration_seconds",
            "Time one solver job spent on the blocking pool",
            solve_seconds.clone(),
        );
        let solves_in_flight = Gauge::default();
        registry.register(
            "solves_in_flight",
            "Solver jobs running right now",
            solves_in_flight.clone(),
        );
        let overloaded = Counter::default();
        registry.register(
            "overloaded_rejections",
            "Requests turned away with 503 overloaded because every solver slot and the waiting line were full",
            overloaded.clone(),
        );
        let rate_limited = Counter::default();
        registry.register(
            "rate_limited_rejections",
            "Requests turned away with 429 rate_limited because their client had spent its quota",
            rate_limited.clone(),
        );
        let unauthorized = Counter::default();
        registry.register(
            "unauthorized_rejections",
            "Requests turned away with 401 unauthorized: no API key, or one that is not valid",
            unauthorized.clone(),
        );
        registry.register(
            "search_limit_answers",
            "Answers 503 search_limit (a whole answer or a batch's board) because a search ran out of its guess budget",
            super::error::search_limit_answers(),
        );
        registry.register(
            "log_lines_dropped",
            "Log lines dropped because the log output was not draining (a stalled collector, a full pipe)",
            crate::telemetry::dropped_log_lines(),
        );
        let open = Family::<ListenerLabels, Gauge>::default();
        let refused = Family::<ListenerLabels, Counter>::default();
        let write_stalled = Family::<ListenerLabels, Counter>::default();
        let evicted = Family::<ListenerLabels, Counter>::default();
        let public_connections =
            ConnectionCounters::registered("public", &open, &refused, &write_stalled, &evicted);
        let admin_connections =
            ConnectionCounters::registered("admin", &open, &refused, &write_stalled, &evicted);
        registry.register(
            "connections_open",
            "Connections open now, by listening address (public or admin)",
            open,
        );
        registry.register(
            "connections_refused",
            "Connections turned away at the cap, every open one having spoken: answered 503 or closed",
            refused,
        );
        registry.register(
            "connections_write_stalled",
            "Connections closed because their client read none of an answer for the write timeout",
            write_stalled,
        );
        registry.register(
            "connections_evicted",
            "Connections closed before their first byte to make room for a new one at the cap",
            evicted,
        );
        let build = Family::<BuildLabels, Gauge>::default();
        build
            .get_or_create(&BuildLabels {
                version: env!("CARGO_PKG_VERSION").to_owned(),
            })
            .set(1);
        registry.register(
            "build_info",
            "Always 1; the version label names the running build",
            build,
        );
        Metrics {
            registry,
            requests,
            request_seconds,
            solve_seconds,
            solves_in_flight,
            overloaded,
            rate_limited,
            unauthorized,
            public_connections,
            admin_connections,
        }
    }

    /// The public address's connection counts.
    pub fn public_connections(&self) -> &ConnectionCounters {
        &self.public_connections
    }

    /// The admin address's connection counts.
    pub fn admin_connections(&self) -> &ConnectionCounters {
        &self.admin_connections
    }

    /// Records one answered request.
    fn observe_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let labels = RequestLabels {
            method: method.to_owned(),
            route: route.to_owned(),
            status,
        };
        self.requests.get_or_create(&labels).inc();
        self.request_seconds
            .get_or_create(&labels)
            .observe(elapsed.as_secs_f64());
    }

    /// Marks a solver job as started; the guard records its time and ends it when dropped.
    pub fn solve_started(self: &Arc<Self>) -> SolveTimer {
        self.solves_in_flight.inc();
        SolveTimer {
            metrics: Arc::clone(self),
            started: Instant::now(),
        }
    }

    /// Counts a request shed because the server was overloaded.
    pub fn count_overloaded(&self) {
        self.overloaded.inc();
    }

    /// Counts a request refused by the rate limit.
    pub fn count_rate_limited(&self) {
        self.rate_limited.inc();
    }

    /// Counts a request refused for want of a valid API key.
    pub fn count_unauthorized(&self) {
        self.unauthorized.inc();
    }

    /// The text exposition (Prometheus text format 0.0.4).
    pub fn render(&self) -> String {
        let mut text = String::new();
        if prometheus_text::encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }
}

/// Ends a solver job's accounting when dropped, also when the job panicked.
pub struct SolveTimer {
    metrics: Arc<Metrics>,
    started: Instant,
}

impl Drop for SolveTimer {
    fn drop(&mut self) {
        self.metrics.solves_in_flight.dec();
        self.metrics
            .solve_seconds
            .observe(self.started.elapsed().as_secs_f64());
    }
}

/// The route a request was routed to, as the router spells it; requests that matched none
/// (the 404s of the fallback) share [`UNMATCHED`], so clients cannot create series without
/// bound.
fn route_label(request: &Request) -> String {
    request
        .extensions()
        .get::<MatchedPath>()
        .map_or(UNMATCHED, MatchedPath::as_str)
        .to_owned()
}

/// The method as a label; unusual methods share one label for the same reason.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// A request being counted and timed by its matched route, from under the routing (see
/// `layer::each_request`) to its answer.
pub struct Tally {
    started: Instant,
    method: &'static str,
    route: String,
}

impl Tally {
    /// Starts counting `request`; under the routing, so that its route is known.
    pub fn start(request: &Request) -> Tally {
        Tally {
            started: Instant::now(),
            method: method_label(request.method()),
            route: route_label(request),
        }
    }

    /// Counts the request, answered with `response`, and its duration in `metrics`.
    pub fn finish(self, metrics: &Metrics, response: &Response) {
        metrics.observe_request(
            self.method,
            &self.route,
            response.status().as_u16(),
            self.started.elapsed(),
        );
    }
}

/// `GET /metrics`: the Prometheus text exposition.
pub async fn export(State(metrics): State<Arc<Metrics>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(prometheus_text::CONTENT_TYPE),
        )],
        metrics.render(),
    )
        .into_response()
}
