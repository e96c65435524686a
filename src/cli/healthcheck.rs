//! `sudoku-service healthcheck`: probes a running server, for images that have no curl.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

// clap shows this doc as the subcommand's own `--help` summary (the options are built only
// when the subcommand runs, see `Command`), and the variant's doc in the top-level list.
/// Probe a local server's /healthz; exit 0 when it answers 200 (for container HEALTHCHECK).
#[derive(Debug, Clone, clap::Args)]
pub struct HealthcheckArgs {
    /// Port of the local server to probe (on 127.0.0.1).
    #[arg(long, env = "PORT", default_value_t = crate::config::DEFAULT_PORT)]
    pub port: u16,

    /// Address to probe instead of 127.0.0.1:PORT; the server's `SUDOKU_LISTEN` is honoured,
    /// with an unspecified IP (`0.0.0.0` or `[::]`) probed on loopback.
    #[arg(long, env = "SUDOKU_LISTEN", value_name = "HOST:PORT")]
    pub addr: Option<String>,

    /// Path to request.
    #[arg(long, default_value = "/healthz")]
    pub path: String,

    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 2)]
    pub timeout: u64,
}

/// Exit 0 when `GET path` answers 200, 1 otherwise (the reason goes to stderr).
pub fn run(args: &HealthcheckArgs) -> ExitCode {
    let target = match args.addr.as_deref().map(str::parse::<SocketAddr>) {
        Some(Ok(addr)) if addr.ip().is_unspecified() => {
            let loopback: std::net::IpAddr = if addr.is_ipv4() {
                std::net::Ipv4Addr::LOCALHOST.into()
            } else {
                std::net::Ipv6Addr::LOCALHOST.into()
            };
            SocketAddr::new(loopback, addr.port()).to_string()
        }
        Some(_) => args.addr.clone().unwrap_or_default(),
        None => format!("127.0.0.1:{}", args.port),
    };
    match probe(
        &target,
        &args.path,
        Duration::from_secs(args.timeout.max(1)),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("healthcheck {target}{}: {reason}", args.path);
            ExitCode::FAILURE
        }
    }
}

fn probe(target: &str, path: &str, timeout: Duration) -> Result<(), String> {
    let addr: SocketAddr = target
        .to_socket_addrs()
        .map_err(|e| e.to_string())?
        .next()
        .ok_or("no address")?;
    let mut stream = TcpStream::connect_timeout(&addr, timeout).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {target}\r\nUser-Agent: sudoku-service-healthcheck\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut head = [0u8; 64];
    let mut read = 0;
    // The status line is all we need; stop once it is in.
    while read < head.len() && !head[..read].contains(&b'\n') {
        match stream.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) => return Err(e.to_string()),
        }
    }
    let status_line = String::from_utf8_lossy(&head[..read]);
    let status = status_line.split_whitespace().nth(1).unwrap_or("");
    if status == "200" {
        Ok(())
    } else {
        Err(format!(
            "unexpected answer {:?}",
            status_line.lines().next().unwrap_or("")
        ))
    }
}
