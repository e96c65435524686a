//! The rules of a request's head that hyper leaves to the server, checked before any route
//! runs: a `Host` on every HTTP/1.1 request (RFC 9112, section 3.2), and no transfer coding
//! but `chunked` (section 6.1; hyper frames the body by the last coding alone).

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The answer to a request whose head breaks those rules, or `None` when it keeps them.
pub(super) fn refusal(request: &Request) -> Option<Response> {
    if let Err(error) = check_transfer_coding(request.headers()) {
        let mut response = error.into_response();
        // The body is left unread, in a coding we do not take: nothing after it is read.
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return Some(response);
    }
    check_host(request).err().map(IntoResponse::into_response)
}

/// [`refusal`] as a middleware, for the admin router (the public one checks in
/// `layer::each_request`).
pub(super) async fn refuse_bad_heads(request: Request, next: Next) -> Response {
    match refusal(&request) {
        Some(refused) => refused,
        None => next.run(request).await,
    }
}

/// One `Host` on HTTP/1.1, at most one before it, and either empty or a host with an optional
/// port (RFC 9112, section 3.2: a server must answer 400 otherwise).
fn check_host(request: &Request) -> Result<(), ApiError> {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (None, _) if request.version() == Version::HTTP_11 => Err(ApiError::InvalidHost(
            "an HTTP/1.1 request needs a Host header (RFC 9112, section 3.2)".into(),
        )),
        (None, _) => Ok(()),
        (Some(_), Some(_)) => Err(ApiError::InvalidHost(
            "the request has more than one Host header".into(),
        )),
        (Some(host), None) if is_host_and_port(host) => Ok(()),
        (Some(_), None) => Err(ApiError::InvalidHost(
            "the Host header is not a host name or address with an optional port".into(),
        )),
    }
}

/// `uri-host [ ":" port ]`, or nothing (the Host of a target without an authority).
fn is_host_and_port(host: &HeaderValue) -> bool {
    let bytes = host.as_bytes();
    if bytes.is_empty() {
        return true;
    }
    // An authority without the user part, and a port that is a number below 65536.
    let Ok(authority) = axum::http::uri::Authority::try_from(bytes) else {
        return false;
    };
    let port = authority.as_str().get(authority.host().len()..);
    !bytes.contains(&b'@')
        && port.is_some_and(|port| {
            port.is_empty()
                || port.strip_prefix(':').is_some_and(|digits| {
                    digits.bytes().all(|b| b.is_ascii_digit())
                        && (digits.is_empty() || digits.parse::<u16>().is_ok())
                })
        })
}

/// Transfer codings as a list over every `Transfer-Encoding` line: `chunked` once, or none.
/// Any other coding is 501 (RFC 9112, section 6.1: one the server does not understand), and
/// `chunked` more than once 400 (a sender must not chunk a chunked body).
fn check_transfer_coding(headers: &HeaderMap) -> Result<(), ApiError> {
    let mut lines = headers.get_all(header::TRANSFER_ENCODING).iter().peekable();
    if lines.peek().is_none() {
        return Ok(());
    }
    let mut chunked = 0;
    for line in lines {
        let Ok(list) = line.to_str() else {
            return Err(bad_request(
                "the Transfer-Encoding header is not readable text",
            ));
        };
        // A coding may carry parameters; empty list elements are allowed (RFC 9110, 5.6.1).
        for coding in list.split(',') {
            let name = coding.split(';').next().unwrap_or_default();
            let name = name.trim_matches([' ', '\t']);
            if name.is_empty() {
                continue;
            }
            if !name.eq_ignore_ascii_case("chunked") {
                let shown: String = name.chars().take(40).collect();
                return Err(ApiError::UnsupportedTransferCoding(format!(
                    "the transfer coding {shown:?} is not one this server decodes: send the \
                     body with Content-Length, or with Transfer-Encoding: chunked alone"
                )));
            }
            chunked += 1;
        }
    }
    match chunked {
        1 => Ok(()),
        0 => Err(bad_request("the Transfer-Encoding header names no coding")),
        _ => Err(bad_request(
            "the body is chunked more than once in Transfer-Encoding, which RFC 9112 \
             (section 6.1) forbids",
        )),
    }
}

fn bad_request(detail: &str) -> ApiError {
    ApiError::Other(StatusCode::BAD_REQUEST, detail.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn request(version: Version, headers: &[(&str, &[u8])]) -> Request {
        let mut request = Request::builder().uri("/solve").version(version);
        for (name, value) in headers {
            request = request.header(*name, HeaderValue::from_bytes(value).unwrap());
        }
        request.body(Body::empty()).unwrap()
    }

    /// The status and code of the refusal, or `None` when the head passes.
    fn refused(version: Version, headers: &[(&str, &[u8])]) -> Option<(u16, &'static str)> {
        let request = request(version, headers);
        let code = check_transfer_coding(request.headers())
            .and_then(|()| check_host(&request))
            .err()
            .map(|error| error.code());
        refusal(&request).map(|answer| (answer.status().as_u16(), code.unwrap()))
    }

    const HOST: (&str, &[u8]) = ("host", b"localhost:8080");

    #[test]
    fn a_host_is_needed_on_http_1_1_only_and_once() {
        let v11 = Version::HTTP_11;
        assert_eq!(refused(v11, &[HOST]), None);
        assert_eq!(refused(v11, &[]), Some((400, "invalid_host")));
        assert_eq!(refused(Version::HTTP_10, &[]), None, "HTTP/1.0 needs none");
        assert_eq!(
            refused(Version::HTTP_10, &[HOST, HOST]),
            Some((400, "invalid_host")),
            "never two"
        );
        assert_eq!(refused(v11, &[HOST, HOST]), Some((400, "invalid_host")));
        for good in [
            &b""[..],
            b"localhost",
            b"example.com.",
            b"192.0.2.1:80",
            b"example.com:",
            b"[2001:db8::1]:8080",
            b"[::1]",
            b"my_host",
        ] {
            assert_eq!(refused(v11, &[("host", good)]), None, "{good:?}");
        }
        for bad in [
            &b"user@example.com"[..],
            b"example.com:http",
            b"example.com:99999",
            b"example.com:+80",
            b"a b",
            b"example.com/path",
            b"[::1",
            b"\xff",
        ] {
            assert_eq!(
                refused(v11, &[("host", bad)]),
                Some((400, "invalid_host")),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn chunked_alone_is_the_one_transfer_coding_taken() {
        let v11 = Version::HTTP_11;
        let te = |value: &'static [u8]| [HOST, ("transfer-encoding", value)];
        for good in [
            &b"chunked"[..],
            b"Chunked",
            b"CHUNKED",
            b" chunked ",
            b", chunked,",
        ] {
            assert_eq!(refused(v11, &te(good)), None, "{good:?}");
        }
        for unknown in [
            &b"gzip, chunked"[..],
            b"GZIP,chunked",
            b"deflate, chunked",
            b"identity, chunked",
            b"x-custom;level=1, chunked",
            b"gzip",
        ] {
            assert_eq!(
                refused(v11, &te(unknown)),
                Some((501, "unsupported_transfer_coding")),
                "{unknown:?}"
            );
        }
        for malformed in [&b"chunked, chunked"[..], b"chunked,CHUNKED", b",", b"\xff"] {
            assert_eq!(
                refused(v11, &te(malformed)),
                Some((400, "bad_request")),
                "{malformed:?}"
            );
        }
        // Two lines make one list.
        let two_lines = [
            HOST,
            ("transfer-encoding", b"gzip"),
            ("transfer-encoding", b"chunked"),
        ];
        assert_eq!(
            refused(v11, &two_lines),
            Some((501, "unsupported_transfer_coding"))
        );
        let twice = [
            HOST,
            ("transfer-encoding", b"chunked"),
            ("transfer-encoding", b"chunked"),
        ];
        assert_eq!(refused(v11, &twice), Some((400, "bad_request")));
    }

    #[test]
    fn a_refused_coding_closes_the_connection_and_a_refused_host_does_not() {
        let gzip = request(
            Version::HTTP_11,
            &[HOST, ("transfer-encoding", b"gzip, chunked")],
        );
        let answer = refusal(&gzip).unwrap();
        assert_eq!(answer.headers()["connection"], "close");
        let hostless = request(Version::HTTP_11, &[]);
        let answer = refusal(&hostless).unwrap();
        assert!(answer.headers().get("connection").is_none());
    }
}
