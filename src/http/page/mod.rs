//! The web playground at `GET /`: one page, embedded in the binary, that plays Sudoku through
//! the public API alone. It doubles as the reference browser client of that API, so its
//! JavaScript is plain ES modules served as written (no build step).
//!
//! Every file is served with a strong `ETag` (a hash of its bytes, computed once), answered
//! with 304 to a matching `If-None-Match`, gzip-compressed when the client asks, and with a
//! strict `Content-Security-Policy`: the page runs only its own scripts and styles and talks
//! only to its own origin.

use std::sync::LazyLock;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::compression::CompressionLayer;

/// The policy of every response here. No `'unsafe-inline'` anywhere: the page has no inline
/// script, no inline style and no `style` attribute. Trusted Types turn every HTML and
/// script sink into an error, so an injected string can never become markup or code; the
/// one policy, `playground`, lets through a single script URL, the service worker's.
/// `connect-src 'self'`: the page calls only the API that served it. `img-src blob:`: the
/// photo under review after a scan is shown from the player's own file, never uploaded back.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' blob:; connect-src 'self'; manifest-src 'self'; \
    worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types playground";

/// Browsers revalidate on every use (the URLs carry no version), which costs one 304; the
/// service worker makes the page load without even that once it is installed.
pub const CACHE_CONTROL: &str = "no-cache";

/// What the service worker stamps into its cache name, replaced once at start by a hash of
/// every other asset, so that any change to the page installs a fresh copy of all of it.
const VERSION_PLACEHOLDER: &str = "__ASSETS_VERSION__";

/// One file of the page, as written in this folder.
struct Source {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JAVASCRIPT: &str = "text/javascript; charset=utf-8";
const MANIFEST: &str = "application/manifest+json";
const SVG: &str = "image/svg+xml";

const SOURCES: [Source; 10] = [
    source("/", HTML, include_bytes!("index.html")),
    source("/app.css", CSS, include_bytes!("app.css")),
    source("/app.js", JAVASCRIPT, include_bytes!("app.js")),
    source("/api.js", JAVASCRIPT, include_bytes!("api.js")),
    source("/board.js", JAVASCRIPT, include_bytes!("board.js")),
    source("/overlay.js", JAVASCRIPT, include_bytes!("overlay.js")),
    source("/scan.js", JAVASCRIPT, include_bytes!("scan.js")),
    source("/sw.js", JAVASCRIPT, include_bytes!("sw.js")),
    source(
        "/manifest.webmanifest",
        MANIFEST,
        include_bytes!("manifest.webmanifest"),
    ),
    source("/icon.svg", SVG, include_bytes!("icon.svg")),
];

/// A [`Source`], in one line of the table.
const fn source(path: &'static str, content_type: &'static str, bytes: &'static [u8]) -> Source {
    Source {
        path,
        content_type,
        bytes,
    }
}

/// A file as served: its final bytes and their validator.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: Vec<u8>,
    /// The strong entity tag, quotes included: `"<16 hex digits>"`.
    etag: String,
}

/// Every asset, built on first use: the service worker needs the others' hashes.
static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(build_assets);

fn build_assets() -> Vec<Asset> {
    let others = SOURCES
        .iter()
        .filter(|source| source.path != "/sw.js")
        .fold(Fnv::new(), |hash, source| hash.update(source.bytes))
        .hex();
    SOURCES
        .iter()
        .map(|source| {
            let bytes = if source.path == "/sw.js" {
                String::from_utf8_lossy(source.bytes)
                    .replace(VERSION_PLACEHOLDER, &others)
                    .into_bytes()
            } else {
                source.bytes.to_vec()
            };
            let etag = format!("\"{}\"", Fnv::new().update(&bytes).hex());
            Asset {
                path: source.path,
                content_type: source.content_type,
                bytes,
                etag,
            }
        })
        .collect()
}

/// The paths this router serves, the page first.
pub fn paths() -> impl Iterator<Item = &'static str> {
    SOURCES.iter().map(|source| source.path)
}

/// The page and its assets, gzip-compressed on request, over any state (it uses none), so
/// it merges into the API's router as it is.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let routes = ASSETS.iter().fold(Router::new(), |router, asset| {
        router.route(
            asset.path,
            get(move |headers: HeaderMap| async move { respond(asset, &headers) }),
        )
    });
    // The layer order matters: the tag is marked after compression has decided the coding.
    routes
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(mark_encoded_etag))
}

fn respond(asset: &'static Asset, request: &HeaderMap) -> Response {
    let mut response = if let Some(tag) = matching_tag(asset, request) {
        let mut response = StatusCode::NOT_MODIFIED.into_response();
        // The form the client holds: a gzip-marked tag stays marked (see `mark_encoded_etag`).
        response.headers_mut().insert(header::ETAG, tag);
        response
    } else {
        let mut response = asset.bytes.clone().into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        );
        headers.insert(header::ETAG, header_value(&asset.etag));
        response
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL),
    );
    // Set here, not only by the compression layer, so that a 304 carries it too.
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    response
}

/// The entity tag of `If-None-Match` that names this asset, in the form the client sent.
/// `If-None-Match` compares weakly (RFC 9110, 13.1.2), so a `W/` prefix is ignored; both the
/// plain tag and its gzip-marked form name the same bytes.
fn matching_tag(asset: &Asset, request: &HeaderMap) -> Option<HeaderValue> {
    let gzip_tag = gzip_marked(&asset.etag);
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .find_map(|tag| {
            let opaque = tag.strip_prefix("W/").unwrap_or(tag);
            if tag == "*" || opaque == asset.etag {
                Some(header_value(&asset.etag))
            } else if opaque == gzip_tag {
                Some(header_value(&gzip_tag))
            } else {
                None
            }
        })
}

/// A strong tag names one exact byte sequence (RFC 9110, 8.8.3), and the gzip body is not
/// the plain one, so a compressed answer carries `"<hash>-gzip"` instead of `"<hash>"`.
async fn mark_encoded_etag(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let gzipped = response
        .headers()
        .get(header::CONTENT_ENCODING)
        .is_some_and(|coding| coding.as_bytes() == b"gzip");
    if gzipped {
        let marked = response
            .headers()
            .get(header::ETAG)
            .and_then(|tag| tag.to_str().ok())
            .filter(|tag| !tag.ends_with("-gzip\""))
            .map(gzip_marked);
        if let Some(marked) = marked {
            response
                .headers_mut()
                .insert(header::ETAG, header_value(&marked));
        }
    }
    response
}

fn gzip_marked(etag: &str) -> String {
    format!("{}-gzip\"", etag.trim_end_matches('"'))
}

fn header_value(tag: &str) -> HeaderValue {
    // Tags are quotes around hex digits, always a valid header value.
    HeaderValue::from_str(tag).unwrap_or_else(|_| HeaderValue::from_static("\"\""))
}

/// 64-bit FNV-1a: not a cryptographic hash, but a validator only has to change when the
/// bytes do, and these bytes are ours.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    const fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(self, bytes: &[u8]) -> Self {
        Fnv(bytes.iter().fold(self.0, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        }))
    }

    fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_published_test_vectors() {
        // From the FNV reference test suite: "" and "a" under 64-bit FNV-1a.
        assert_eq!(Fnv::new().hex(), "cbf29ce484222325");
        assert_eq!(Fnv::new().update(b"a").hex(), "af63dc4c8601ec8c");
        assert_eq!(Fnv::new().update(b"foobar").hex(), "85944171f73967e8");
    }

    #[test]
    fn the_service_worker_is_stamped_with_the_other_assets_version() {
        let sw = ASSETS.iter().find(|asset| asset.path == "/sw.js").unwrap();
        let text = std::str::from_utf8(&sw.bytes).unwrap();
        assert!(
            !text.contains(VERSION_PLACEHOLDER),
            "placeholder left in sw.js"
        );
        let others = SOURCES
            .iter()
            .filter(|source| source.path != "/sw.js")
            .fold(Fnv::new(), |hash, source| hash.update(source.bytes))
            .hex();
        assert!(text.contains(&others), "sw.js lacks the version {others}");
    }

    #[test]
    fn every_asset_has_a_distinct_strong_tag() {
        let mut tags: Vec<&str> = ASSETS.iter().map(|asset| asset.etag.as_str()).collect();
        for tag in &tags {
            assert!(!tag.starts_with("W/") && tag.len() == 18, "{tag}");
        }
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), SOURCES.len());
    }
}
