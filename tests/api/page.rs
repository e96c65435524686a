//! The web playground's serving, through `Router` + `oneshot`: content types, validators and
//! 304s, the security headers, and gzip on request. What the page does in a browser is
//! tested by `scripts/ci/browser-test.sh`.

use axum::Router;
use axum::body::{Body, Bytes, to_bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use sudoku_service::config::Config;
use sudoku_service::http::page;
use tower::ServiceExt;

const INDEX_HTML: &str = include_str!("../../src/http/page/index.html");
const APP_JS: &[u8] = include_bytes!("../../src/http/page/app.js");
const SW_JS: &str = include_str!("../../src/http/page/sw.js");
const MANIFEST: &str = include_str!("../../src/http/page/manifest.webmanifest");

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    fn header(&self, name: &header::HeaderName) -> &str {
        self.headers.get(name).map_or_else(
            || panic!("no {name} header"),
            |value| value.to_str().unwrap(),
        )
    }
}

async fn get_from(app: &Router, path: &str, headers: &[(header::HeaderName, &str)]) -> Answer {
    let mut request = Request::builder()
        .method(Method::GET)
        .uri(path)
        .header(header::HOST, "localhost");
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body: to_bytes(body, usize::MAX).await.unwrap(),
    }
}

async fn get(path: &str, headers: &[(header::HeaderName, &str)]) -> Answer {
    get_from(&page::router(), path, headers).await
}

#[tokio::test]
async fn every_asset_is_served_with_its_content_type() {
    let expected = [
        ("/", "text/html; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/api.js", "text/javascript; charset=utf-8"),
        ("/board.js", "text/javascript; charset=utf-8"),
        ("/overlay.js", "text/javascript; charset=utf-8"),
        ("/scan.js", "text/javascript; charset=utf-8"),
        ("/sw.js", "text/javascript; charset=utf-8"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/icon.svg", "image/svg+xml"),
    ];
    let mut served: Vec<&str> = page::paths().collect();
    served.sort_unstable();
    let mut listed: Vec<&str> = expected.iter().map(|(path, _)| *path).collect();
    listed.sort_unstable();
    assert_eq!(
        served, listed,
        "the router serves other paths than this test knows"
    );
    for (path, content_type) in expected {
        let answer = get(path, &[]).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.header(&header::CONTENT_TYPE), content_type, "{path}");
        assert!(!answer.body.is_empty(), "{path}");
        assert_eq!(answer.header(&header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    }
}

#[tokio::test]
async fn the_page_is_the_embedded_file_byte_for_byte_without_accept_encoding() {
    let answer = get("/", &[]).await;
    assert_eq!(answer.body, INDEX_HTML.as_bytes());
    assert!(answer.headers.get(header::CONTENT_ENCODING).is_none());
    let answer = get("/app.js", &[]).await;
    assert_eq!(answer.body, APP_JS);
}

#[tokio::test]
async fn the_page_carries_a_strict_content_security_policy() {
    let answer = get("/", &[]).await;
    let csp = answer.header(&header::CONTENT_SECURITY_POLICY);
    let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
    for wanted in [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
    ] {
        assert!(
            directives.contains(&wanted),
            "{wanted:?} missing from {csp}"
        );
    }
    for loose in [
        "unsafe-inline",
        "unsafe-eval",
        "unsafe-hashes",
        "data:",
        "*",
    ] {
        assert!(!csp.contains(loose), "{loose:?} in {csp}");
    }
    assert_eq!(answer.header(&header::REFERRER_POLICY), "no-referrer");
    // The worker's own response carries the policy too: a worker is governed by its own.
    let worker = get("/sw.js", &[]).await;
    assert_eq!(worker.header(&header::CONTENT_SECURITY_POLICY), csp);
}

#[test]
fn the_html_has_no_inline_script_style_or_handler_that_the_policy_would_block() {
    let lower = INDEX_HTML.to_ascii_lowercase();
    for (at, _) in lower.match_indices("<script") {
        let tag = &lower[at..at + lower[at..].find('>').unwrap()];
        assert!(tag.contains(" src="), "inline script: {tag}");
    }
    assert!(!lower.contains("<style"), "a <style> element");
    assert!(!lower.contains(" style="), "a style attribute");
    // An attribute such as `onclick="..."`: "on", letters, then "=".
    let handler = lower.split(|c: char| c.is_whitespace()).find(|word| {
        word.strip_prefix("on")
            .and_then(|rest| rest.split_once('='))
            .is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase())
            })
    });
    assert!(handler.is_none(), "an inline event handler: {handler:?}");
    assert!(!lower.contains("javascript:"), "a javascript: URL");
}

#[tokio::test]
async fn each_asset_has_a_strong_etag_and_is_revalidated() {
    for path in page::paths() {
        let answer = get(path, &[]).await;
        let etag = answer.header(&header::ETAG).to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2,
            "{path}: {etag} is not a strong tag"
        );
        assert_eq!(answer.header(&header::CACHE_CONTROL), "no-cache", "{path}");
        // The same bytes, the same tag.
        assert_eq!(get(path, &[]).await.header(&header::ETAG), etag, "{path}");
    }
}

#[tokio::test]
async fn a_matching_if_none_match_gets_304_without_a_body() {
    let etag = get("/app.js", &[]).await.header(&header::ETAG).to_owned();
    let weak = format!("W/{etag}");
    let listed = format!("\"other\", {etag}");
    for if_none_match in [etag.as_str(), weak.as_str(), listed.as_str(), "*"] {
        let answer = get("/app.js", &[(header::IF_NONE_MATCH, if_none_match)]).await;
        assert_eq!(answer.status, StatusCode::NOT_MODIFIED, "{if_none_match}");
        assert!(answer.body.is_empty(), "{if_none_match}");
        assert_eq!(answer.header(&header::ETAG), etag, "{if_none_match}");
        assert_eq!(answer.header(&header::CACHE_CONTROL), "no-cache");
        assert!(answer.header(&header::VARY).contains("accept-encoding"));
    }
    for stale in ["\"0000000000000000\"", "\"\"", "nonsense"] {
        let answer = get("/app.js", &[(header::IF_NONE_MATCH, stale)]).await;
        assert_eq!(answer.status, StatusCode::OK, "{stale}");
        assert_eq!(answer.body, APP_JS);
    }
    // Another asset's tag does not match this one.
    let page_etag = get("/", &[]).await.header(&header::ETAG).to_owned();
    assert_ne!(page_etag, etag);
    let answer = get("/app.js", &[(header::IF_NONE_MATCH, &page_etag)]).await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[tokio::test]
async fn gzip_is_sent_when_asked_and_its_tag_differs_from_the_plain_one() {
    let plain = get("/app.js", &[]).await;
    let plain_etag = plain.header(&header::ETAG).to_owned();
    let gzipped = get("/app.js", &[(header::ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(gzipped.status, StatusCode::OK);
    assert_eq!(gzipped.header(&header::CONTENT_ENCODING), "gzip");
    assert!(gzipped.header(&header::VARY).contains("accept-encoding"));
    assert_eq!(&gzipped.body[..2], &[0x1f, 0x8b], "not a gzip stream");
    assert!(
        gzipped.body.len() * 2 < plain.body.len(),
        "gzip {} bytes against {} plain",
        gzipped.body.len(),
        plain.body.len()
    );
    let gzip_etag = gzipped.header(&header::ETAG).to_owned();
    assert_eq!(
        gzip_etag,
        format!("{}-gzip\"", plain_etag.trim_end_matches('"'))
    );

    // Revalidating the gzip copy answers 304 with the tag the client holds.
    let revalidated = get(
        "/app.js",
        &[
            (header::ACCEPT_ENCODING, "gzip"),
            (header::IF_NONE_MATCH, &gzip_etag),
        ],
    )
    .await;
    assert_eq!(revalidated.status, StatusCode::NOT_MODIFIED);
    assert_eq!(revalidated.header(&header::ETAG), gzip_etag);
    assert!(revalidated.headers.get(header::CONTENT_ENCODING).is_none());

    // Every text asset is compressed; nothing is when the client does not ask.
    for path in page::paths() {
        let answer = get(path, &[(header::ACCEPT_ENCODING, "gzip, br")]).await;
        assert_eq!(answer.header(&header::CONTENT_ENCODING), "gzip", "{path}");
        let answer = get(path, &[(header::ACCEPT_ENCODING, "identity")]).await;
        assert!(
            answer.headers.get(header::CONTENT_ENCODING).is_none(),
            "{path}"
        );
    }
}

#[test]
fn everything_the_page_links_to_is_served_by_the_page_or_the_api() {
    let served: Vec<&str> = page::paths().collect();
    let mut links = Vec::new();
    for attribute in ["src=\"", "href=\""] {
        for (at, _) in INDEX_HTML.match_indices(attribute) {
            let rest = &INDEX_HTML[at + attribute.len()..];
            links.push(&rest[..rest.find('"').unwrap()]);
        }
    }
    assert!(links.len() >= 6, "found only {links:?}");
    for link in links {
        assert!(
            link.starts_with('/'),
            "{link} is not same-origin and absolute"
        );
        assert!(
            served.contains(&link) || link == "/openapi.yaml",
            "{link} is linked but not served"
        );
    }
}

#[test]
fn the_service_worker_caches_exactly_the_other_assets() {
    let start = SW_JS.find("const ASSETS = [").unwrap();
    let end = start + SW_JS[start..].find("];").unwrap();
    let mut cached: Vec<&str> = SW_JS[start..end].split('\'').skip(1).step_by(2).collect();
    cached.sort_unstable();
    let mut others: Vec<&str> = page::paths().filter(|path| *path != "/sw.js").collect();
    others.sort_unstable();
    assert_eq!(cached, others);
}

#[test]
fn the_manifest_is_json_and_its_icons_are_served() {
    let manifest: serde_json::Value = serde_json::from_str(MANIFEST).unwrap();
    assert_eq!(manifest["start_url"], "/");
    let icons = manifest["icons"].as_array().unwrap();
    assert!(!icons.is_empty());
    for icon in icons {
        let src = icon["src"].as_str().unwrap();
        assert!(page::paths().any(|path| path == src), "{src}");
    }
}

#[tokio::test]
async fn the_whole_service_serves_the_page_beside_the_api() {
    let app = sudoku_service::http::router(sudoku_service::http::AppState::new(&Config::default()));
    let page = get_from(&app, "/", &[]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.body, INDEX_HTML.as_bytes());
    // The page keeps its own policy; the API's answers get the API's (security.rs).
    assert_eq!(
        page.header(&header::CONTENT_SECURITY_POLICY),
        page::CONTENT_SECURITY_POLICY
    );
    // The API's layers leave a 304 alone: no problem body is made of it.
    let etag = page.header(&header::ETAG).to_owned();
    let again = get_from(&app, "/", &[(header::IF_NONE_MATCH, &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    // The API's own answers are not compressed: the layer is on the page's routes only.
    let spec = get_from(&app, "/openapi.yaml", &[(header::ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(spec.status, StatusCode::OK);
    assert!(spec.headers.get(header::CONTENT_ENCODING).is_none());
    assert_ne!(
        spec.headers[header::CONTENT_SECURITY_POLICY],
        page::CONTENT_SECURITY_POLICY
    );
}
