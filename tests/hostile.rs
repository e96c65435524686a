//! A corpus of hostile requests through `Router` + `oneshot`: broken and malicious JSON,
//! odd Unicode, wrong types at every level, oversized bodies, wrong content types, and
//! every method on every route. Each case must get the documented status and `code` as
//! `application/problem+json` with a `detail` that says what is wrong (never a 500, never
//! plain text), and must be answered within [`CASE_BUDGET`].
//!
//! `tests/http_api.rs` covers the main error paths once each; this file is the wide net.

mod common;

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, Method, Request, StatusCode};
use common::*;
use serde_json::{Value, json};
use sudoku_service::config::Config;
use sudoku_service::sudoku::{Grid, is_solved};
use tower::ServiceExt;

/// Time allowed to answer one case, body included. The slowest cases (10 MB bodies, deep
/// nesting) take a few milliseconds even in a debug build; see `slowest case` in the output.
const CASE_BUDGET: Duration = Duration::from_millis(100);

/// The bound for cases marked `slow_in_debug`, in debug builds only.
const DEBUG_BUDGET: Duration = Duration::from_millis(1000);

const TEN_MB: usize = 10 * 1024 * 1024;

/// What a case must get back.
#[derive(Debug, Clone)]
enum Expect {
    /// A problem with this status and code, whose `detail` contains `needle` (any case).
    Problem {
        status: u16,
        code: &'static str,
        needle: &'static str,
    },
    /// A success answer of this status (a board solved as-is, or a probe).
    Success { status: u16 },
    /// `200` with an empty body (an `OPTIONS` request, answered by the CORS layer).
    EmptyOk,
}

/// How the body is sent.
enum Payload {
    /// All at once, with its exact size known up front.
    Whole(Vec<u8>),
    /// As a stream of `count` chunks of `size` bytes each, with no size hint.
    Stream {
        chunk: u8,
        size: usize,
        count: usize,
    },
}

struct Case {
    name: String,
    method: Method,
    path: String,
    content_type: Option<HeaderValue>,
    payload: Payload,
    expect: Expect,
    /// Parsing a megabyte of JSON takes over 100 ms in a debug build (about 120 ms here);
    /// such cases get [`DEBUG_BUDGET`] there and [`CASE_BUDGET`] in release builds only.
    slow_in_debug: bool,
}

impl Case {
    fn new(name: impl Into<String>, method: Method, path: &str) -> Case {
        Case {
            name: name.into(),
            method,
            path: path.to_owned(),
            content_type: None,
            payload: Payload::Whole(Vec::new()),
            expect: Expect::Success { status: 200 },
            slow_in_debug: false,
        }
    }

    fn slow_in_debug(mut self) -> Case {
        self.slow_in_debug = true;
        self
    }

    /// The time this case may take in this build.
    fn budget(&self) -> Duration {
        if self.slow_in_debug && cfg!(debug_assertions) {
            DEBUG_BUDGET
        } else {
            CASE_BUDGET
        }
    }

    /// A `POST` of `body` declared as `application/json`.
    fn post(name: impl Into<String>, path: &str, body: impl Into<Vec<u8>>) -> Case {
        let mut case = Case::new(name, Method::POST, path);
        case.content_type = Some(HeaderValue::from_static("application/json"));
        case.payload = Payload::Whole(body.into());
        case
    }

    fn content_type(mut self, value: Option<HeaderValue>) -> Case {
        self.content_type = value;
        self
    }

    fn problem(mut self, status: u16, code: &'static str, needle: &'static str) -> Case {
        self.expect = Expect::Problem {
            status,
            code,
            needle,
        };
        self
    }

    fn success(mut self, status: u16) -> Case {
        self.expect = Expect::Success { status };
        self
    }

    fn request(&self) -> Request<Body> {
        let mut request = Request::builder()
            .method(self.method.clone())
            .uri(self.path.as_str());
        if let Some(value) = &self.content_type {
            request = request.header("content-type", value.clone());
        }
        let body = match &self.payload {
            Payload::Whole(bytes) => Body::from(bytes.clone()),
            &Payload::Stream { chunk, size, count } => {
                let chunk = Bytes::from(vec![chunk; size]);
                Body::from_stream(futures_util::stream::iter(
                    (0..count).map(move |_| Ok::<_, std::io::Error>(chunk.clone())),
                ))
            }
        };
        request.body(body).unwrap()
    }
}

/// Sends one case, timing it from the request going in to the last byte of the answer.
async fn run(app: &Router, case: &Case) -> (Answer, Duration, Vec<u8>) {
    let request = case.request();
    let started = Instant::now();
    let response = app.clone().oneshot(request).await.unwrap();
    let (answer, bytes) = read_answer(response).await;
    (answer, started.elapsed(), bytes.to_vec())
}

/// Checks one answer against its case; returns a failure message instead of panicking, so
/// every failing case is listed at once.
fn check(case: &Case, answer: &Answer, raw: &[u8], elapsed: Duration) -> Result<(), String> {
    let name = format!("{} {} [{}]", case.method, case.path, case.name);
    let fail = |what: String| {
        Err(format!(
            "{name}: {what}; got {} {:?}",
            answer.status, answer.body
        ))
    };
    if answer.status == StatusCode::INTERNAL_SERVER_ERROR {
        return fail("a 500".into());
    }
    if elapsed > case.budget() {
        return fail(format!("took {elapsed:?}, over {:?}", case.budget()));
    }
    match &case.expect {
        Expect::Problem {
            status,
            code,
            needle,
        } => {
            if answer.status.as_u16() != *status {
                return fail(format!("expected status {status}"));
            }
            if answer.content_type() != "application/problem+json" {
                return fail(format!("content type {:?}", answer.content_type()));
            }
            // HEAD answers carry the headers of the problem but, by HTTP's rules, no body.
            if case.method == Method::HEAD && raw.is_empty() {
                return Ok(());
            }
            let body = &answer.body;
            if body["code"] != *code {
                return fail(format!("expected code {code}"));
            }
            if body["status"] != *status
                || body["type"] != format!("urn:sudoku-service:problem:{code}")
                || !body["title"].is_string()
            {
                return fail("a malformed problem object".into());
            }
            let detail = body["detail"].as_str().unwrap_or_default();
            if detail.trim().is_empty() {
                return fail("an empty detail".into());
            }
            if !detail.to_lowercase().contains(&needle.to_lowercase()) {
                return fail(format!("detail does not mention {needle:?}"));
            }
            if *status == 405 && !answer.headers.contains_key("allow") {
                return fail("a 405 without Allow".into());
            }
            if *status == 503
                && *code == "overloaded"
                && !answer.headers.contains_key("retry-after")
            {
                return fail("a shed answer without Retry-After".into());
            }
        }
        Expect::Success { status } => {
            if answer.status.as_u16() != *status {
                return fail(format!("expected status {status}"));
            }
            if answer.content_type() == "application/problem+json" {
                return fail("a problem for a success".into());
            }
            if case.method != Method::HEAD && raw.is_empty() {
                return fail("an empty success body".into());
            }
        }
        Expect::EmptyOk => {
            if answer.status != StatusCode::OK || !raw.is_empty() {
                return fail("expected 200 with no body".into());
            }
        }
    }
    Ok(())
}

/// Runs every case on a fresh default router; fails once, listing every failing case.
async fn run_all(cases: &[Case]) {
    let app = app();
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for case in cases {
        let (answer, elapsed, raw) = run(&app, case).await;
        if elapsed > slowest.0 {
            slowest = (
                elapsed,
                format!("{} {} [{}]", case.method, case.path, case.name),
            );
        }
        if let Err(message) = check(case, &answer, &raw, elapsed) {
            failures.push(message);
        }
    }
    println!(
        "{} cases, slowest case {:?}: {}",
        cases.len(),
        slowest.0,
        slowest.1
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn body(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

/// `{"board": <PUZZLE's integer rows with one cell replaced by raw JSON text>}`.
fn int_board_with(row: usize, col: usize, cell: &str) -> Vec<u8> {
    let mut rows: Vec<Vec<String>> = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|r| {
            r.iter()
                .map(|&b| {
                    if b == b'.' {
                        "0".into()
                    } else {
                        (b as char).to_string()
                    }
                })
                .collect()
        })
        .collect();
    rows[row][col] = cell.to_owned();
    let rows: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(","))).collect();
    format!("{{\"board\": [{}]}}", rows.join(",")).into_bytes()
}

/// `{"board": <PUZZLE's string rows with one cell replaced>}`.
fn char_board_with(row: usize, col: usize, cell: Value) -> Vec<u8> {
    let mut board = char_rows(PUZZLE);
    board[row][col] = cell;
    body(&json!({ "board": board }))
}

/// `{"board": "<PUZZLE with character `at` replaced by `with`>"}`.
fn line_with(at: usize, with: &str) -> Vec<u8> {
    let mut chars: Vec<String> = PUZZLE.chars().map(String::from).collect();
    chars[at] = with.to_owned();
    body(&json!({ "board": chars.concat() }))
}

/// Malformed or hostile bodies for `path` (`/solve` or `/validate`), each with its answer.
fn body_cases(path: &str) -> Vec<Case> {
    let p = |name: &str, bytes: Vec<u8>| Case::post(name, path, bytes);
    let good = body(&json!({ "board": PUZZLE }));
    let pj = format!("\"{PUZZLE}\"");
    let deep = |open: &str, close: &str, n: usize| {
        format!("{{\"board\": {}{}}}", open.repeat(n), close.repeat(n)).into_bytes()
    };
    let mut ints = int_rows(PUZZLE);
    let rows_of = |f: &dyn Fn(&mut Vec<Value>)| {
        let mut rows = int_rows(PUZZLE).as_array().unwrap().clone();
        f(&mut rows);
        body(&json!({ "board": rows }))
    };
    ints[0] = json!("53..7....");
    let mut utf16 = Vec::new();
    for unit in String::from_utf8(good.clone()).unwrap().encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    vec![
        // --- Not JSON at all, or cut short.
        p("empty body", vec![]).problem(400, "invalid_json", "not valid JSON"),
        p("whitespace only", b" \r\n\t ".to_vec()).problem(400, "invalid_json", "EOF"),
        p("lone brace", b"{".to_vec()).problem(400, "invalid_json", "EOF"),
        p("key only", br#"{"board""#.to_vec()).problem(400, "invalid_json", "EOF"),
        p("key and colon", br#"{"board":"#.to_vec()).problem(400, "invalid_json", "EOF"),
        p("truncated string", br#"{"board": "53..7"#.to_vec()).problem(400, "invalid_json", "EOF"),
        p("truncated rows", br#"{"board": [[5,3,0],[6"#.to_vec()).problem(400, "invalid_json", "EOF"),
        p("trailing comma", format!("{{\"board\": {pj},}}").into_bytes())
            .problem(400, "invalid_json", "trailing comma"),
        p("single quotes", format!("{{'board': '{PUZZLE}'}}").into_bytes())
            .problem(400, "invalid_json", "key must be a string"),
        p("unquoted key", format!("{{board: {pj}}}").into_bytes())
            .problem(400, "invalid_json", "key must be a string"),
        p("comment", format!("{{/* hi */\"board\": {pj}}}").into_bytes())
            .problem(400, "invalid_json", "key must be a string"),
        p("NaN", br#"{"board": NaN}"#.to_vec()).problem(400, "invalid_json", "expected value"),
        p("Infinity", br#"{"board": [[Infinity]]}"#.to_vec())
            .problem(400, "invalid_json", "expected value"),
        p("trailing garbage", format!("{{\"board\": {pj}}} x").into_bytes())
            .problem(400, "invalid_json", "trailing characters"),
        p("two objects", format!("{{\"board\": {pj}}}{{\"board\": {pj}}}").into_bytes())
            .problem(400, "invalid_json", "trailing characters"),
        p("hex number", br#"{"board": 0x10}"#.to_vec()).problem(400, "invalid_json", "expected `,` or `}`"),
        p("leading zero", int_board_with(0, 0, "05")).problem(400, "invalid_json", "invalid number"),
        p("plus sign", int_board_with(0, 0, "+5")).problem(400, "invalid_json", "expected value"),
        // --- Bytes that are not UTF-8, or not the UTF-8 JSON allows.
        p("invalid utf-8 in a value", b"{\"board\": \"\xff\xfe\"}".to_vec())
            .problem(400, "invalid_json", "invalid unicode code point"),
        p("invalid utf-8 in a key", b"{\"bo\xc3ard\": \"x\"}".to_vec())
            .problem(400, "invalid_json", "invalid unicode code point"),
        p("overlong utf-8 slash", b"{\"board\": \"\xc0\xaf\"}".to_vec())
            .problem(400, "invalid_json", "invalid unicode code point"),
        p("utf-8 surrogate bytes", b"{\"board\": \"\xed\xa0\x80\"}".to_vec())
            .problem(400, "invalid_json", "invalid unicode code point"),
        p("byte order mark", [b"\xef\xbb\xbf".as_slice(), &good].concat())
            .problem(400, "invalid_json", "expected value"),
        p("utf-16 body", utf16).problem(400, "invalid_json", "key must be a string"),
        p("lone surrogate escape", br#"{"board": "\ud800"}"#.to_vec())
            .problem(400, "invalid_json", "hex escape"),
        p("raw NUL in a string", b"{\"board\": \"5\x003\"}".to_vec())
            .problem(400, "invalid_json", "control character"),
        p("raw newline in a string", b"{\"board\": \"5\n3\"}".to_vec())
            .problem(400, "invalid_json", "control character"),
        // --- Nested far too deep for anyone's good.
        p("30k nested arrays in the board", deep("[", "]", 30_000))
            .problem(400, "invalid_json", "recursion limit"),
        p("10k nested objects in the board", deep("{\"a\":", "}", 10_000))
            .problem(400, "invalid_json", "recursion limit"),
        p("30k nested arrays as the body", [b"[".repeat(30_000), b"]".repeat(30_000)].concat())
        // Deep but well-formed JSON, skipped without recursion: simply not an object.
        .problem(400, "invalid_board", "must be a JSON object"),
        p("unclosed nesting", b"{\"board\": ".iter().chain(&b"[".repeat(60_000)).copied().collect())
            .problem(400, "invalid_json", "recursion limit"),
        // --- The body is JSON, but not an object.
        p("body is a string", pj.clone().into_bytes())
            .problem(400, "invalid_board", "must be a JSON object"),
        p("body is a number", b"81".to_vec()).problem(400, "invalid_board", "must be a JSON object"),
        p("body is an array", format!("[{pj}]").into_bytes())
            .problem(400, "invalid_board", "must be a JSON object"),
        p("body is null", b"null".to_vec()).problem(400, "invalid_board", "must be a JSON object"),
        p("body is true", b" true ".to_vec()).problem(400, "invalid_board", "must be a JSON object"),
        // --- An object of the wrong shape.
        p("empty object", b"{}".to_vec()).problem(400, "invalid_board", "missing field `board`"),
        p("extra field", format!("{{\"board\": {pj}, \"hint\": true}}").into_bytes())
            .problem(400, "invalid_board", "unknown field `hint`"),
        p("duplicate board", format!("{{\"board\": {pj}, \"board\": {pj}}}").into_bytes())
            .problem(400, "invalid_board", "duplicate field `board`"),
        p("key in another case", format!("{{\"Board\": {pj}}}").into_bytes())
            .problem(400, "invalid_board", "unknown field `Board`"),
        p("key with a NUL", format!("{{\"board\\u0000\": {pj}}}").into_bytes())
            .problem(400, "invalid_board", "unknown field"),
        p("board is an object", br#"{"board": {"0": "53..7...."}}"#.to_vec())
            .problem(400, "invalid_board", "found an object"),
        p("board is a boolean", br#"{"board": false}"#.to_vec())
            .problem(400, "invalid_board", "found a boolean"),
        p("board is a number", br#"{"board": 534678912}"#.to_vec())
            .problem(400, "invalid_board", "found a number"),
        p("board is null", br#"{"board": null}"#.to_vec()).problem(400, "invalid_board", "found null"),
        // --- The board string is the wrong length or holds the wrong characters.
        p("empty board string", br#"{"board": ""}"#.to_vec()).problem(400, "invalid_board", "found 0 characters"),
        p("80 characters", body(&json!({"board": &PUZZLE[1..]})))
            .problem(400, "invalid_board", "found 80 characters"),
        p("82 characters", body(&json!({"board": format!("{PUZZLE}.")})))
            .problem(400, "invalid_board", "found 82 characters"),
        p("60,000 characters", body(&json!({"board": "1".repeat(60_000)})))
            .problem(400, "invalid_board", "found 60000 characters"),
        p("padded with spaces", body(&json!({"board": format!(" {PUZZLE}")})))
            .problem(400, "invalid_board", "found 82 characters"),
        p("full-width digit in the line", line_with(2, "１"))
            .problem(400, "invalid_board", "row 0, column 2"),
        p("Arabic-Indic digit in the line", line_with(11, "٥"))
            .problem(400, "invalid_board", "row 1, column 2"),
        p("superscript digit in the line", line_with(80, "⁹"))
            .problem(400, "invalid_board", "row 8, column 8"),
        p("emoji in the line", line_with(40, "😀")).problem(400, "invalid_board", "row 4, column 4"),
        p("NUL in the line", line_with(9, "\u{0}")).problem(400, "invalid_board", "row 1, column 0"),
        p("RTL mark in the line", line_with(2, "\u{200F}")).problem(400, "invalid_board", "row 0, column 2"),
        p("RTL override before the line", line_with(0, "\u{202E}5"))
            .problem(400, "invalid_board", "found 82 characters"),
        p("combining mark in the line", line_with(0, "5\u{0301}"))
            .problem(400, "invalid_board", "found 82 characters"),
        p("zero-width space in the line", line_with(3, "\u{200B}"))
            .problem(400, "invalid_board", "row 0, column 3"),
        p("escaped NUL in the line", {
            let mut line = PUZZLE.to_string();
            line.replace_range(5..6, "");
            format!("{{\"board\": \"{line}\\u0000\"}}").into_bytes()
        })
        .problem(400, "invalid_board", "row 8, column 8"),
        // --- Rows of the wrong shape.
        p("rows are strings", body(&json!({"board": PUZZLE.as_bytes().chunks(9).map(|r| String::from_utf8(r.to_vec()).unwrap()).collect::<Vec<_>>()})))
            .problem(400, "invalid_board", "row 0 must be an array"),
        p("first row a string", body(&json!({ "board": ints })))
            .problem(400, "invalid_board", "row 0 must be an array"),
        p("a row is null", rows_of(&|rows| rows[6] = Value::Null))
            .problem(400, "invalid_board", "row 6 must be an array of 9 cells, found null"),
        p("a row is an object", rows_of(&|rows| rows[8] = json!({"0": 5})))
            .problem(400, "invalid_board", "found an object"),
        p("no rows", br#"{"board": []}"#.to_vec()).problem(400, "invalid_board", "9 rows, found 0"),
        p("8 rows", rows_of(&|rows| {
            rows.pop();
        }))
        .problem(400, "invalid_board", "9 rows, found 8"),
        p("10 rows", rows_of(&|rows| rows.push(json!([0, 0, 0, 0, 0, 0, 0, 0, 0]))))
            .problem(400, "invalid_board", "9 rows, found 10"),
        p("81 rows of one", body(&json!({"board": vec![json!([0]); 81]})))
            .problem(400, "invalid_board", "9 rows, found 81"),
        p("ragged: a row of 8", rows_of(&|rows| {
            rows[4].as_array_mut().unwrap().pop();
        }))
        .problem(400, "invalid_board", "row 4 must have 9 cells, found 8"),
        p("ragged: an empty row", rows_of(&|rows| rows[8] = json!([])))
            .problem(400, "invalid_board", "row 8 must have 9 cells, found 0"),
        // --- Cells of the wrong type or value.
        p("cell is an object", int_board_with(2, 3, "{}")).problem(400, "invalid_board", "row 2, column 3"),
        p("cell is an array", int_board_with(2, 3, "[5]")).problem(400, "invalid_board", "found an array"),
        p("cell is a boolean", int_board_with(7, 1, "true")).problem(400, "invalid_board", "found a boolean"),
        p("cell is 1.5", int_board_with(0, 2, "1.5")).problem(400, "invalid_board", "1.5 is not an integer"),
        p("cell is 9.000001", int_board_with(0, 2, "9.000001")).problem(400, "invalid_board", "not an integer"),
        p("cell is -1", int_board_with(0, 2, "-1")).problem(400, "invalid_board", "-1 is not an integer"),
        p("cell is -9", int_board_with(0, 2, "-9.0")).problem(400, "invalid_board", "not an integer"),
        p("cell is 10", int_board_with(0, 2, "10")).problem(400, "invalid_board", "10 is not an integer"),
        p("cell is 1e400", int_board_with(0, 2, "1e400"))
            .problem(400, "invalid_json", "number out of range"),
        p("cell is -1e400", int_board_with(0, 2, "-1e400"))
            .problem(400, "invalid_json", "number out of range"),
        p("cell is 2^64", int_board_with(0, 2, "18446744073709551616"))
            .problem(400, "invalid_board", "not an integer from 0 to 9"),
        p("cell is 2^64 + 5", int_board_with(0, 2, "18446744073709551621"))
            .problem(400, "invalid_board", "not an integer from 0 to 9"),
        p("cell is -2^63 - 1", int_board_with(0, 2, "-9223372036854775809"))
            .problem(400, "invalid_board", "not an integer from 0 to 9"),
        p("cell is u64::MAX", int_board_with(0, 2, "18446744073709551615"))
            .problem(400, "invalid_board", "not an integer from 0 to 9"),
        // Past f64's range serde_json gives up on the number itself: still a 400, with a
        // detail that names the number (see the report: arguably `invalid_board`).
        p("cell is a 400-digit integer", int_board_with(0, 2, &"9".repeat(400)))
            .problem(400, "invalid_json", "number out of range"),
        p("cell is the string \"5\" among integers", int_board_with(0, 2, "\"4\""))
            .problem(400, "invalid_board", "use one form"),
        p("full-width digit cell", char_board_with(0, 2, json!("１")))
            .problem(400, "invalid_board", "row 0, column 2"),
        p("emoji cell", char_board_with(1, 1, json!("🧩"))).problem(400, "invalid_board", "row 1, column 1"),
        p("flag emoji cell", char_board_with(1, 1, json!("🇫🇷")))
            .problem(400, "invalid_board", "exactly one character"),
        p("combining mark cell", char_board_with(0, 2, json!("4\u{0301}")))
            .problem(400, "invalid_board", "exactly one character"),
        p("NUL cell", char_board_with(0, 2, json!("\u{0}"))).problem(400, "invalid_board", "row 0, column 2"),
        p("RTL mark cell", char_board_with(0, 2, json!("\u{200F}"))).problem(400, "invalid_board", "row 0, column 2"),
        p("empty string cell", char_board_with(0, 2, json!(""))).problem(400, "invalid_board", "exactly one character"),
        p("space cell", char_board_with(0, 2, json!(" "))).problem(400, "invalid_board", "row 0, column 2"),
        p("two-digit string cell", char_board_with(0, 2, json!("12")))
            .problem(400, "invalid_board", "exactly one character"),
        // --- Numbers that are whole, if oddly written: read as their integer on purpose.
        p("cell is -0 (read as 0, empty)", int_board_with(0, 2, "-0")),
        p("cell is 4.0 (read as 4)", int_board_with(0, 2, "4.0")),
        p("cell is 4e0 (read as 4)", int_board_with(0, 2, "4e0")),
        p("cell is 0.4e1 (read as 4)", int_board_with(0, 2, "0.4e1")),
        p("cell is 1e-400 (underflows to 0, empty)", int_board_with(0, 2, "1e-400")),
        // --- Content types.
        p("no content type", good.clone())
            .content_type(None)
            .problem(415, "unsupported_media_type", "missing Content-Type"),
        p("text/plain", good.clone())
            .content_type(Some(HeaderValue::from_static("text/plain")))
            .problem(415, "unsupported_media_type", "text/plain"),
        p("text/json", good.clone())
            .content_type(Some(HeaderValue::from_static("text/json")))
            .problem(415, "unsupported_media_type", "text/json"),
        p("application/jsonx", good.clone())
            .content_type(Some(HeaderValue::from_static("application/jsonx")))
            .problem(415, "unsupported_media_type", "application/jsonx"),
        p("application/xml", good.clone())
            .content_type(Some(HeaderValue::from_static("application/xml")))
            .problem(415, "unsupported_media_type", "application/xml"),
        p("form", good.clone())
            .content_type(Some(HeaderValue::from_static("application/x-www-form-urlencoded")))
            .problem(415, "unsupported_media_type", "not supported"),
        p("multipart", good.clone())
            .content_type(Some(HeaderValue::from_static("multipart/form-data; boundary=x")))
            .problem(415, "unsupported_media_type", "not supported"),
        p("empty content type", good.clone())
            .content_type(Some(HeaderValue::from_static("")))
            .problem(415, "unsupported_media_type", "not supported"),
        p("non-ASCII content type", good.clone())
            .content_type(Some(HeaderValue::from_bytes(b"application/j\xffson").unwrap()))
            .problem(415, "unsupported_media_type", "<not text>"),
        p("json only as a parameter", good.clone())
            .content_type(Some(HeaderValue::from_static("text/plain; type=application/json")))
            .problem(415, "unsupported_media_type", "not supported"),
        p("APPLICATION/JSON", good.clone())
            .content_type(Some(HeaderValue::from_static("APPLICATION/JSON"))),
        p("application/merge-patch+json", good.clone())
            .content_type(Some(HeaderValue::from_static("application/merge-patch+json"))),
        // --- Sizes.
        p("10 MB body", {
            let mut big = b"{\"board\": \"".to_vec();
            big.resize(TEN_MB, b'1');
            big
        })
        .problem(413, "payload_too_large", "65536"),
        Case {
            payload: Payload::Stream {
                chunk: b' ',
                size: 64 * 1024,
                count: 160,
            },
            ..Case::post("10 MB streamed in 64 KiB chunks", path, vec![])
        }
        .problem(413, "payload_too_large", "65536"),
        p("10 MB body as text/plain (type checked first)", vec![b'x'; TEN_MB])
            .content_type(Some(HeaderValue::from_static("text/plain")))
            .problem(415, "unsupported_media_type", "text/plain"),
        p("exactly 64 KiB, padded with spaces", {
            let mut padded = good.clone();
            padded.resize(64 * 1024, b' ');
            padded
        }),
        p("64 KiB + 1, padded with spaces", {
            let mut padded = good.clone();
            padded.resize(64 * 1024 + 1, b' ');
            padded
        })
        .problem(413, "payload_too_large", "65536"),
    ]
}

#[tokio::test]
async fn hostile_bodies_on_solve_get_the_documented_problem() {
    run_all(&body_cases("/solve")).await;
}

#[tokio::test]
async fn hostile_bodies_on_validate_get_the_documented_problem() {
    run_all(&body_cases("/validate")).await;
}

#[tokio::test]
async fn hostile_batch_bodies_get_the_documented_problem() {
    let path = "/solve/batch";
    let p = |name: &str, bytes: &[u8]| Case::post(name, path, bytes.to_vec());
    let cases = vec![
        p("empty body", b"").problem(400, "invalid_json", "EOF"),
        p("boards is a string", br#"{"boards": "53..7"}"#).problem(
            400,
            "invalid_board",
            "invalid type",
        ),
        p("boards is an object", br#"{"boards": {"0": "53..7"}}"#).problem(
            400,
            "invalid_board",
            "invalid type",
        ),
        p("boards is null", br#"{"boards": null}"#).problem(400, "invalid_board", "invalid type"),
        p("no boards", br#"{"boards": []}"#).problem(400, "invalid_board", "1 to 1000"),
        p("board instead of boards", br#"{"board": []}"#).problem(
            400,
            "invalid_board",
            "unknown field `board`",
        ),
        p("duplicate boards", br#"{"boards": [], "boards": []}"#).problem(
            400,
            "invalid_board",
            "duplicate field `boards`",
        ),
        p(
            "body is an array of boards",
            br#"[".........", "........."]"#,
        )
        .problem(400, "invalid_board", "must be a JSON object"),
        p(
            "500k nested arrays as the body (1 MB)",
            &[b"[".repeat(500_000), b"]".repeat(500_000)].concat(),
        )
        .problem(400, "invalid_board", "must be a JSON object")
        .slow_in_debug(),
        p("500k unclosed arrays as the body", &b"[".repeat(500_000))
            .problem(400, "invalid_json", "recursion limit")
            .slow_in_debug(),
        p(
            "boards nested 100k deep",
            &[b"{\"boards\": ".as_slice(), &b"[".repeat(100_000)].concat(),
        )
        .problem(400, "invalid_json", "recursion limit"),
        p("a board cell is 1e400", br#"{"boards": [[[1e400]]]}"#).problem(
            400,
            "invalid_json",
            "number out of range",
        ),
        p(
            "1001 empty strings",
            format!("{{\"boards\": [{}]}}", vec!["\"\""; 1001].join(",")).as_bytes(),
        )
        .problem(400, "invalid_board", "found 1001"),
        p("10 MB body", &{
            let mut big = b"{\"boards\": [".to_vec();
            big.resize(TEN_MB, b' ');
            big
        })
        .problem(413, "payload_too_large", "1048576"),
        p("text/plain", br#"{"boards": []}"#)
            .content_type(Some(HeaderValue::from_static("text/plain")))
            .problem(415, "unsupported_media_type", "text/plain"),
    ];
    run_all(&cases).await;
}

#[tokio::test]
async fn a_batch_of_hostile_boards_answers_each_one_alone() {
    let boards = json!([true, null, {}, [], "１", 1e300, -0, [[1.5]], PUZZLE]);
    let started = Instant::now();
    let answer = post_json(&app(), "/solve/batch", &json!({ "boards": boards })).await;
    assert!(started.elapsed() < CASE_BUDGET, "{:?}", started.elapsed());
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    let results = answer.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 9);
    for (i, result) in results[..8].iter().enumerate() {
        assert_eq!(
            result["error"]["code"], "invalid_board",
            "board {i}: {result:?}"
        );
        assert_eq!(result["error"]["status"], 400, "board {i}");
        assert!(
            result["error"]["errors"][0]["pointer"]
                .as_str()
                .is_some_and(|p| p.starts_with(&format!("/boards/{i}"))),
            "board {i}: {result:?}"
        );
        assert!(
            !result["error"]["detail"]
                .as_str()
                .unwrap_or_default()
                .is_empty()
        );
    }
    assert_eq!(results[8], json!({"solution": SOLUTION, "unique": true}));
}

/// Every method on every route, and on paths that are almost routes.
#[tokio::test]
async fn every_method_on_every_route_gets_a_documented_answer() {
    let custom = Method::from_bytes(b"FROBNICATE").unwrap();
    let methods = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::OPTIONS,
        Method::TRACE,
        Method::CONNECT,
        custom,
    ];
    let unknown = [
        "/index.html",
        "/nowhere",
        "/solve/",
        "/SOLVE",
        "/solve/batch/x",
        "/healthz/",
        "/openapi.json",
        "/%00",
        "/s%C3%B6lve",
        "/..%2Fsolve",
    ];
    // The playground's page and assets answer GET like the API's GET routes.
    let page: Vec<&str> = sudoku_service::http::page::paths().collect();
    let mut cases = Vec::new();
    for method in &methods {
        for path in sudoku_service::http::ROUTES
            .iter()
            .chain(&page)
            .chain(&unknown)
        {
            let posts = matches!(*path, "/solve" | "/solve/batch" | "/validate");
            let known = sudoku_service::http::ROUTES.contains(path) || page.contains(path);
            let name = format!("{method} {path}");
            let case = Case::new(name, method.clone(), path);
            let case = if *method == Method::OPTIONS {
                // Every OPTIONS is a CORS preflight to tower-http: 200, no body, any path.
                Case {
                    expect: Expect::EmptyOk,
                    ..case
                }
            } else if !known {
                case.problem(404, "not_found", "no resource at")
            } else if posts && *method == Method::POST {
                // No content type and no body: refused before anything is read.
                case.problem(415, "unsupported_media_type", "missing Content-Type")
            } else if posts {
                case.problem(405, "method_not_allowed", "is not allowed here")
            } else if *method == Method::GET || *method == Method::HEAD {
                case.success(200)
            } else {
                case.problem(405, "method_not_allowed", "is not allowed here")
            };
            cases.push(case);
        }
    }
    assert_eq!(cases.len(), 10 * (7 + page.len() + 10));
    run_all(&cases).await;
}

/// The method-matrix cases, checked for the right `Allow` header.
#[tokio::test]
async fn a_405_lists_the_methods_the_route_takes() {
    let app = app();
    for (path, allow) in [
        ("/solve", "POST"),
        ("/solve/batch", "POST"),
        ("/validate", "POST"),
        ("/healthz", "GET,HEAD"),
        ("/readyz", "GET,HEAD"),
        ("/metrics", "GET,HEAD"),
        ("/openapi.yaml", "GET,HEAD"),
    ] {
        for method in [
            Method::PATCH,
            Method::TRACE,
            Method::from_bytes(b"X").unwrap(),
        ] {
            let answer = call(&app, method.clone(), path, None, Body::empty()).await;
            answer.assert_problem(405, "method_not_allowed", &format!("{method} {path}"));
            assert_eq!(answer.headers["allow"], allow, "{method} {path}");
            assert!(
                answer.body["detail"]
                    .as_str()
                    .unwrap()
                    .contains(method.as_str()),
                "{method} {path}: {:?}",
                answer.body
            );
        }
    }
}

/// The whole-float and `-0` cases above are accepted; check they mean what they say.
#[tokio::test]
async fn whole_floats_and_minus_zero_read_as_their_integer() {
    let app = app();
    for cell in ["-0", "4.0", "4e0", "0.4e1", "1e-400", "-0.0"] {
        let board = int_board_with(0, 2, cell);
        let answer = call(
            &app,
            Method::POST,
            "/validate",
            Some("application/json"),
            board,
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{cell}: {:?}", answer.body);
        // Cell (0, 2) is empty in PUZZLE and 4 in its solution: either way the board is
        // valid, solvable and unique.
        assert_eq!(answer.body["valid"], true, "{cell}");
        assert_eq!(answer.body["unique"], true, "{cell}");
        let solved = call(
            &app,
            Method::POST,
            "/solve",
            Some("application/json"),
            int_board_with(0, 2, cell),
        )
        .await;
        assert_eq!(solved.body["solution"], int_rows(SOLUTION), "{cell}");
    }
    // 5.0 where 4 belongs is read as 5, which clashes: a 422, not a 400.
    let answer = call(
        &app,
        Method::POST,
        "/solve",
        Some("application/json"),
        int_board_with(0, 2, "3.0"),
    )
    .await;
    answer.assert_problem(422, "no_solution", "3.0 read as 3 clashes with row 0");
}

/// Regression corpus: inputs found by fuzzing (`fuzz/`), kept in `tests/data/fuzz/`.
#[tokio::test]
async fn fuzz_regressions_never_fail_the_server() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let app = app();
    for entry in entries {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        for route in ["/solve", "/validate"] {
            let case = Case::post(path.display().to_string(), route, bytes.clone());
            let (answer, elapsed, _) = run(&app, &case).await;
            assert_ne!(
                answer.status,
                StatusCode::INTERNAL_SERVER_ERROR,
                "{}",
                case.name
            );
            assert!(elapsed < CASE_BUDGET, "{}: {elapsed:?}", case.name);
            if !answer.status.is_success() {
                answer.assert_problem(
                    answer.status.as_u16(),
                    answer.body["code"].as_str().unwrap_or("?"),
                    &case.name,
                );
            } else {
                let solution = &answer.body["solution"];
                if let Some(line) = solution.as_str() {
                    assert!(is_solved(&Grid::from_line(line).unwrap()), "{}", case.name);
                }
            }
        }
    }
}

/// Sanity: a tiny configuration does not change what the hostile corpus gets.
#[tokio::test]
async fn limits_are_quoted_from_the_configuration() {
    let config = Config {
        body_limit: 50,
        ..Config::default()
    };
    let app = app_with(&config);
    let answer = post_json(&app, "/solve", &json!({ "board": PUZZLE })).await;
    answer.assert_problem(413, "payload_too_large", "50-byte limit");
    assert!(answer.body["detail"].as_str().unwrap().contains("50 bytes"));
}
