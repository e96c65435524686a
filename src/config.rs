//! Server configuration: every setting is a flag and an environment variable.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;
use std::time::Duration;

use ipnet::IpNet;

/// Address the server listens on unless `--listen` or `PORT` says otherwise.
pub const DEFAULT_LISTEN: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::UNSPECIFIED), DEFAULT_PORT);
/// Port used when only the port is defaulted.
pub const DEFAULT_PORT: u16 = 8080;
/// Largest request body accepted, in bytes.
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
/// Largest `/solve/batch` body: room for 1,000 boards in the widest form.
pub const DEFAULT_BATCH_BODY_LIMIT: usize = 1024 * 1024;
/// Largest `/scan` body: a phone's photo, with room to spare.
pub const DEFAULT_SCAN_BODY_LIMIT: usize = 10 * 1024 * 1024;
/// Most pixels a `/scan` image may declare in its header (40 megapixels).
pub const DEFAULT_SCAN_MAX_PIXELS: u64 = sudoku_scan::Limits::DEFAULT_MAX_PIXELS;
/// Whole-request deadline, in seconds.
pub const DEFAULT_REQUEST_TIMEOUT_SECS: u64 = 10;
/// Solve requests allowed to wait for a solver slot before new ones are turned away.
pub const DEFAULT_MAX_QUEUED_SOLVES: usize = 64;
/// Seconds a client is told to wait (`Retry-After`) when the server is overloaded, or when
/// `/generate` found no puzzle of the difficulty asked for in time.
pub const RETRY_AFTER_SECS: u64 = 1;
/// Milliseconds `/generate` may search for a puzzle of the difficulty asked for.
pub const DEFAULT_GENERATE_DEADLINE_MS: u64 = 2_000;
/// Puzzles `/generate` keeps ready per kind it has been asked for without a seed.
pub const DEFAULT_GENERATE_STOCK: usize = 2;

/// Units a client may spend per rate-limit window; 0 (the default) turns the limit off.
///
/// Off, because the server cannot tell a client from the proxy in front of it: behind a
/// load balancer every request comes from the balancer's few addresses, and unless those
/// are named with `--trusted-proxies`, a per-client limit would be one limit shared by
/// every user. The global shedding (503 `overloaded`) guards the solver slots either way.
pub const DEFAULT_RATE_LIMIT: u32 = 0;
/// Seconds in which a client's whole quota comes back.
pub const DEFAULT_RATE_LIMIT_WINDOW_SECS: u64 = 60;
/// Clients the limiter holds apart; beyond them new clients share one bucket. 100,000 of
/// them took 4.4 MB in `tests/security_flood.rs` (a million, without the cap, 66 MB).
pub const DEFAULT_RATE_LIMIT_CLIENTS: usize = 100_000;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// The header a trusted proxy names the client in; the other one is never read, so a client
/// cannot slip in one the proxy passes on untouched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For`, the one most proxies append to.
    XForwardedFor,
    /// RFC 7239's `Forwarded` (its `for=` parameters).
    Forwarded,
}

// clap shows this doc as `serve --help`'s summary (see `cli::Command`).
/// Run the HTTP server (the default).
#[derive(Debug, Clone, clap::Args)]
pub struct Config {
    /// Address and port to listen on [default: 0.0.0.0:8080, or 0.0.0.0:$PORT when PORT is set].
    #[arg(long, env = "SUDOKU_LISTEN", value_name = "ADDR")]
    pub listen: Option<SocketAddr>,

    /// Port to listen on (all interfaces) when --listen is not given; set by container platforms.
    #[arg(long, env = "PORT", value_name = "PORT")]
    pub port: Option<u16>,

    /// Largest request body accepted, in bytes; larger ones get 413.
    #[arg(long, env = "SUDOKU_BODY_LIMIT", value_name = "BYTES", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,

    /// Largest `/solve/batch` body accepted, in bytes; larger ones get 413.
    #[arg(long, env = "SUDOKU_BATCH_BODY_LIMIT", value_name = "BYTES", default_value_t = DEFAULT_BATCH_BODY_LIMIT)]
    pub batch_body_limit: usize,

    /// Largest `/scan` body (an image) accepted, in bytes; larger ones get 413.
    #[arg(long, env = "SUDOKU_SCAN_BODY_LIMIT", value_name = "BYTES", default_value_t = DEFAULT_SCAN_BODY_LIMIT)]
    pub scan_body_limit: usize,

    /// Most pixels a `/scan` image may declare; larger ones get 413 before any decoding.
    #[arg(long, env = "SUDOKU_SCAN_MAX_PIXELS", value_name = "PIXELS", default_value_t = DEFAULT_SCAN_MAX_PIXELS)]
    pub scan_max_pixels: u64,

    /// Seconds a whole request may take, reading the body included; slower ones get 408.
    #[arg(long, env = "SUDOKU_REQUEST_TIMEOUT", value_name = "SECONDS", default_value_t = DEFAULT_REQUEST_TIMEOUT_SECS)]
    pub request_timeout: u64,

    /// Solves running at once on the blocking pool [default: number of CPUs].
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_SOLVES", value_name = "N")]
    pub max_concurrent_solves: Option<NonZeroUsize>,

    /// Solve requests allowed to wait for a slot; beyond that, 503 `overloaded` at once.
    #[arg(long, env = "SUDOKU_MAX_QUEUED_SOLVES", value_name = "N", default_value_t = DEFAULT_MAX_QUEUED_SOLVES)]
    pub max_queued_solves: usize,

    /// Guesses one search may make before it gives up with 503 `search_limit`.
    #[arg(long, env = "SUDOKU_GUESS_BUDGET", value_name = "GUESSES", default_value_t = sudoku::DEFAULT_GUESS_BUDGET)]
    pub guess_budget: u64,

    /// Logical steps `/grade` applies at most; a puzzle that needs more is answered with the
    /// rating reached and `solved_by_logic: false`.
    #[arg(long, env = "SUDOKU_GRADE_STEP_BUDGET", value_name = "STEPS", default_value_t = sudoku::grade::DEFAULT_STEP_BUDGET)]
    pub grade_step_budget: usize,

    /// Milliseconds `/generate` may search for a puzzle of the difficulty asked for before it
    /// answers 503 `search_limit`; at most half the request timeout is used.
    #[arg(long, env = "SUDOKU_GENERATE_DEADLINE_MS", value_name = "MS", default_value_t = DEFAULT_GENERATE_DEADLINE_MS)]
    pub generate_deadline: u64,

    /// Puzzles kept ready for each kind (difficulty, symmetry, minimal) that `/generate`
    /// has been asked for without a seed, made in the background when the solver slots are
    /// idle; 0 makes every puzzle on request.
    #[arg(long, env = "SUDOKU_GENERATE_STOCK", value_name = "N", default_value_t = DEFAULT_GENERATE_STOCK)]
    pub generate_stock: usize,

    /// Browser origins allowed by CORS, comma-separated, or `*` for any.
    #[arg(
        long,
        env = "SUDOKU_CORS_ORIGINS",
        value_name = "ORIGINS",
        value_delimiter = ',',
        default_value = "*"
    )]
    pub cors_origins: Vec<String>,

    /// Seconds to keep serving after SIGTERM with /readyz failing, so load balancers stop
    /// sending traffic before the listener closes.
    #[arg(
        long,
        env = "SUDOKU_SHUTDOWN_DELAY",
        value_name = "SECONDS",
        default_value_t = 0
    )]
    pub shutdown_delay: u64,

    /// Seconds the drain after SIGTERM may take at most: connections still open then (a
    /// client that does not read its answer, say) are closed and the process exits 0. A
    /// second SIGTERM or Ctrl-C exits at once.
    #[arg(
        long,
        env = "SUDOKU_SHUTDOWN_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 20
    )]
    pub shutdown_timeout: u64,

    /// Connections the public address holds open at once; past it a connection gets one
    /// answer (the probes theirs, anything else 503 `overloaded`) and is closed [default:
    /// 10,000, or fewer when the file-descriptor limit, raised to its hard limit at start,
    /// leaves less past the 64 kept for the admin address and the process].
    #[arg(long, env = "SUDOKU_MAX_CONNECTIONS", value_name = "N")]
    pub max_connections: Option<NonZeroUsize>,

    /// Seconds an answer may wait for its client to read any of it; then the connection is
    /// closed. A slow reader that keeps reading is never cut off.
    #[arg(
        long,
        env = "SUDOKU_WRITE_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 10,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub write_timeout: u64,

    /// A second address that serves /metrics, /healthz and /readyz (for Prometheus and
    /// probes, kept off the internet); when set, /metrics on the main address answers 404.
    #[arg(long, env = "SUDOKU_ADMIN_LISTEN", value_name = "ADDR")]
    pub admin_listen: Option<SocketAddr>,

    /// File of API keys (`LABEL KEY` or `LABEL sha256:HEX` per line, `#` comments); when
    /// set, every API route needs a key (probes, /openapi.yaml and the page stay open).
    /// Read again on SIGHUP.
    #[arg(long, env = "SUDOKU_API_KEYS_FILE", value_name = "PATH")]
    pub api_keys_file: Option<PathBuf>,

    /// Units each client may spend per window (a solve or a validate costs 1, a batch 1 per
    /// board, other solver routes 10); beyond them, 429 `rate_limited`. 0 turns the limit
    /// off (the default: behind a load balancer, set --trusted-proxies first).
    #[arg(long, env = "SUDOKU_RATE_LIMIT", value_name = "UNITS", default_value_t = DEFAULT_RATE_LIMIT)]
    pub rate_limit: u32,

    /// Seconds in which a client's whole quota comes back (evenly, unit by unit).
    #[arg(long, env = "SUDOKU_RATE_LIMIT_WINDOW", value_name = "SECONDS", default_value_t = DEFAULT_RATE_LIMIT_WINDOW_SECS, value_parser = clap::value_parser!(u64).range(1..))]
    pub rate_limit_window: u64,

    /// Clients the rate limit holds apart; past them, new clients share one bucket, so a
    /// flood of addresses cannot grow memory without bound.
    #[arg(long, env = "SUDOKU_RATE_LIMIT_CLIENTS", value_name = "N", default_value_t = DEFAULT_RATE_LIMIT_CLIENTS)]
    pub rate_limit_clients: usize,

    /// Proxies whose forwarding header (`--forwarded-header`) is believed, as addresses or
    /// CIDR ranges, comma-separated (none by default: the headers are ignored).
    #[arg(long, env = "SUDOKU_TRUSTED_PROXIES", value_name = "CIDRS", value_delimiter = ',', value_parser = parse_ip_range)]
    pub trusted_proxies: Vec<IpNet>,

    /// The header the trusted proxies name the client in (the other one is ignored).
    #[arg(long, env = "SUDOKU_FORWARDED_HEADER", value_enum, value_name = "HEADER", default_value_t = ForwardedHeader::XForwardedFor)]
    pub forwarded_header: ForwardedHeader,

    /// Secret that keys the daily puzzles' seeds (`/daily`), so that nobody can compute a day's
    /// puzzle before the service hands it out; replicas with the same secret answer the same
    /// puzzles. Without it the seeds are public. Prefer the environment variable: a flag's
    /// value shows in the process list.
    #[arg(
        long,
        env = "SUDOKU_DAILY_SECRET",
        value_name = "SECRET",
        hide_env_values = true
    )]
    pub daily_secret: Option<DailySecret>,

    /// Log line format; the level is set by `RUST_LOG` (default: info).
    #[arg(long, env = "SUDOKU_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl Default for Config {
    /// The settings of a command line that gives none, whatever the environment holds: each
    /// default is the one its `#[arg]` declares, so the two cannot drift apart.
    fn default() -> Self {
        let matches = command_line_alone()
            .try_get_matches_from(["sudoku-service"])
            .expect("the declared defaults parse");
        <Config as clap::FromArgMatches>::from_arg_matches(&matches)
            .expect("the declared defaults fill every setting")
    }
}

/// The settings' arguments with their environment variables dropped (clap reads each when
/// the argument is built), so that only the command line and the defaults count.
fn command_line_alone() -> clap::Command {
    <Config as clap::Args>::augment_args(clap::Command::new("sudoku-service"))
        .mut_args(|arg| arg.env(None::<&'static str>))
}

impl Config {
    /// The address to bind: `--listen`, else all interfaces on `PORT`, else the default.
    pub fn listen_addr(&self) -> SocketAddr {
        match (self.listen, self.port) {
            (Some(addr), _) => addr,
            (None, Some(port)) => SocketAddr::new(DEFAULT_LISTEN.ip(), port),
            (None, None) => DEFAULT_LISTEN,
        }
    }

    /// The whole-request deadline.
    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout)
    }

    /// How long `/generate` may search: the configured deadline, but never more than half
    /// the request timeout, so that a search that finds nothing still answers 503 well
    /// before the request would time out.
    pub fn generate_deadline(&self) -> Duration {
        Duration::from_millis(self.generate_deadline).min(self.request_timeout() / 2)
    }

    /// Solves allowed at once: the configured number, else one per CPU.
    pub fn solve_slots(&self) -> usize {
        self.max_concurrent_solves
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get)
    }

    /// The per-client quota, when the rate limit is on.
    pub fn rate_limit_quota(&self) -> Option<NonZeroU32> {
        NonZeroU32::new(self.rate_limit)
    }

    /// The rate limit's window.
    pub fn rate_limit_window(&self) -> Duration {
        Duration::from_secs(self.rate_limit_window)
    }

    /// True when CORS allows every origin.
    pub fn cors_allows_any_origin(&self) -> bool {
        self.cors_origins.is_empty() || self.cors_origins.iter().any(|o| o.trim() == "*")
    }
}

/// The secret of the daily puzzles: kept out of every `Debug` print of the settings (and so
/// of logs), as clap is kept from showing the environment's value in `--help`.
#[derive(Clone, PartialEq, Eq)]
pub struct DailySecret(String);

impl DailySecret {
    /// The secret's bytes, the key of the seeds' HMAC.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl From<String> for DailySecret {
    fn from(secret: String) -> Self {
        DailySecret(secret)
    }
}

impl std::fmt::Debug for DailySecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DailySecret(..)")
    }
}

/// A CIDR range, or one address as the range of just itself.
fn parse_ip_range(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is neither an IP address nor a CIDR range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_read_no_environment_variable_but_the_command_line_still_parses() {
        let declared = <Config as clap::Args>::augment_args(clap::Command::new("x"));
        assert!(declared.get_arguments().any(|arg| arg.get_env().is_some()));
        let alone = command_line_alone();
        assert!(alone.get_arguments().all(|arg| arg.get_env().is_none()));
        let matches = alone.get_matches_from(["x", "--port", "9000", "--rate-limit", "5"]);
        let config = <Config as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        assert_eq!((config.port, config.rate_limit), (Some(9000), 5));
        assert_eq!(config.body_limit, DEFAULT_BODY_LIMIT);
    }

    #[test]
    fn port_alone_moves_the_default_address() {
        let config = Config {
            port: Some(9000),
            ..Config::default()
        };
        assert_eq!(config.listen_addr(), "0.0.0.0:9000".parse().unwrap());
    }

    #[test]
    fn listen_wins_over_port() {
        let config = Config {
            listen: Some("127.0.0.1:7000".parse().unwrap()),
            port: Some(9000),
            ..Config::default()
        };
        assert_eq!(config.listen_addr(), "127.0.0.1:7000".parse().unwrap());
    }

    #[test]
    fn the_default_is_all_interfaces_on_8080_with_any_origin() {
        let config = Config::default();
        assert_eq!(config.listen_addr(), "0.0.0.0:8080".parse().unwrap());
        assert!(config.cors_allows_any_origin());
        assert!(config.solve_slots() >= 1);
    }

    #[test]
    fn trusted_proxies_are_ranges_or_single_addresses() {
        assert_eq!(
            parse_ip_range(" 10.0.0.0/8").unwrap().to_string(),
            "10.0.0.0/8"
        );
        assert_eq!(
            parse_ip_range("192.0.2.1").unwrap().to_string(),
            "192.0.2.1/32"
        );
        assert_eq!(
            parse_ip_range("2001:db8::/32").unwrap().to_string(),
            "2001:db8::/32"
        );
        assert!(parse_ip_range("10.0.0.0/33").is_err());
        assert!(parse_ip_range("proxy.local").is_err());
    }

    #[test]
    fn the_daily_secret_is_read_but_never_printed() {
        let matches =
            command_line_alone().get_matches_from(["x", "--daily-secret", "s3cr3t-v4lue"]);
        let config = <Config as clap::FromArgMatches>::from_arg_matches(&matches).unwrap();
        let secret = config.daily_secret.as_ref().expect("the secret is read");
        assert_eq!(secret.as_bytes(), b"s3cr3t-v4lue");
        assert!(!format!("{config:?}").contains("s3cr3t"));
        assert_eq!(Config::default().daily_secret, None);
        let declared = <Config as clap::Args>::augment_args(clap::Command::new("x"));
        let argument = declared
            .get_arguments()
            .find(|arg| arg.get_id() == "daily_secret")
            .unwrap();
        assert!(argument.is_hide_env_values_set());
    }

    #[test]
    fn the_rate_limit_is_off_by_default() {
        assert_eq!(Config::default().rate_limit_quota(), None);
    }

    #[test]
    fn the_generate_deadline_stays_under_the_request_timeout() {
        let config = Config::default();
        assert_eq!(config.generate_deadline(), Duration::from_secs(2));
        let short = Config {
            request_timeout: 2,
            ..Config::default()
        };
        assert_eq!(short.generate_deadline(), Duration::from_secs(1));
    }
}
