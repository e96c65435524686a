//! A corpus of hostile requests through `Router` + `oneshot`: broken and malicious JSON,
//! odd Unicode, wrong types at every level, oversized bodies, wrong content types, and
//! every method on every route. Each case must get the documented status and `code` as
//! `application/problem+json` with a `detail` that says what is wrong (never a 500, never
//! plain text); a body sent in pieces is read no further than the limit, and a board that
//! is answered gets its right answer. Nothing here is timed: what bounds the work is the
//! body limit, `serde_json`'s recursion limit and the guess budget, all checked as such.
//!
//! `errors.rs` covers the main error paths once each; this module is the wide net.
//! `fuzz.rs` replays the fuzz regression corpus.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, Method, Request, StatusCode};
use serde_json::{Value, json};
use sudoku_service::config::{Config, DEFAULT_BATCH_BODY_LIMIT, DEFAULT_BODY_LIMIT};
use tower::ServiceExt;

use crate::helpers::*;

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

    /// The request, and the count of body bytes the server has pulled from it so far.
    fn request(&self) -> (Request<Body>, Arc<AtomicUsize>) {
        let mut request = Request::builder()
            .method(self.method.clone())
            .uri(self.path.as_str())
            .header("host", "localhost");
        if let Some(value) = &self.content_type {
            request = request.header("content-type", value.clone());
        }
        let pulled = Arc::new(AtomicUsize::new(0));
        let body = match &self.payload {
            Payload::Whole(bytes) => {
                pulled.store(bytes.len(), Ordering::Relaxed);
                Body::from(bytes.clone())
            }
            &Payload::Stream { chunk, size, count } => {
                let chunk = Bytes::from(vec![chunk; size]);
                let pulled = Arc::clone(&pulled);
                Body::from_stream(futures_util::stream::iter((0..count).map(move |_| {
                    pulled.fetch_add(size, Ordering::Relaxed);
                    Ok::<_, std::io::Error>(chunk.clone())
                })))
            }
        };
        (request.body(body).unwrap(), pulled)
    }

    /// The body limit of this case's route, in the default configuration.
    fn body_limit(&self) -> usize {
        if self.path == "/solve/batch" {
            DEFAULT_BATCH_BODY_LIMIT
        } else {
            DEFAULT_BODY_LIMIT
        }
    }
}

/// What one case got back: the answer, its raw body, the body bytes the server pulled,
/// and the time it took (printed, never asserted: see the module comment).
struct Outcome {
    answer: Answer,
    raw: Vec<u8>,
    pulled: usize,
    elapsed: Duration,
}

/// Sends one case and reads its answer to the end.
async fn run(app: &Router, case: &Case) -> Outcome {
    let (request, pulled) = case.request();
    let started = Instant::now();
    let response = app.clone().oneshot(request).await.unwrap();
    let (answer, bytes) = read_answer(response).await;
    Outcome {
        answer,
        raw: bytes.to_vec(),
        pulled: pulled.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    }
}

/// Checks one answer against its case; returns a failure message instead of panicking, so
/// every failing case is listed at once.
fn check(case: &Case, outcome: &Outcome) -> Result<(), String> {
    let Outcome {
        answer,
        raw,
        pulled,
        ..
    } = outcome;
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
    if let Payload::Stream { size, .. } = case.payload {
        // The limit stops the reading: at most the chunk that crosses it is pulled.
        if *pulled > case.body_limit() + size {
            return fail(format!(
                "pulled {pulled} body bytes past the {}-byte limit",
                case.body_limit()
            ));
        }
    }
    match &case.expect {
        Expect::Problem {
            status,
            code,
            needle,
        } => {
            // HEAD answers carry the headers of the problem but, by HTTP's rules, no body.
            if case.method == Method::HEAD && raw.is_empty() {
                if answer.status.as_u16() != *status
                    || answer.content_type() != "application/problem+json"
                {
                    return fail(format!("expected a {status} problem's headers"));
                }
                return Ok(());
            }
            if let Some(fault) = answer.problem_fault(*status, code) {
                return fail(fault);
            }
            let detail = answer.body["detail"].as_str().unwrap_or_default();
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
            // Every board these cases send is the classic puzzle, at most with its empty
            // cell (0, 2) written oddly or filled with its solution's 4.
            if case.method == Method::POST && case.path == "/solve" {
                let solution = grid_of_any_form(&answer.body["solution"]);
                if solution != Ok(grid(SOLUTION)) || answer.body["unique"] != true {
                    return fail("expected the classic puzzle's unique solution".into());
                }
            }
            if case.method == Method::POST
                && case.path == "/validate"
                && (answer.body["valid"] != true || answer.body["unique"] != true)
            {
                return fail("expected a valid board with one solution".into());
            }
            if case.method == Method::POST
                && case.path == "/grade"
                && (answer.body["difficulty"] != "easy" || answer.body["solved_by_logic"] != true)
            {
                return fail("expected the classic puzzle's grade: easy, solved by logic".into());
            }
            if case.method == Method::POST && case.path == "/hint" && answer.body["kind"] != "step"
            {
                return fail("expected a step of the classic puzzle".into());
            }
            if case.method == Method::POST
                && case.path == "/explain"
                && (answer.body["difficulty"] != "easy" || answer.body["solved"] != true)
            {
                return fail("expected the classic puzzle's path: easy, solved".into());
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
    assert!(!cases.is_empty(), "no cases to run");
    let app = app();
    let mut failures = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    for case in cases {
        let outcome = run(&app, case).await;
        if outcome.elapsed > slowest.0 {
            slowest = (
                outcome.elapsed,
                format!("{} {} [{}]", case.method, case.path, case.name),
            );
        }
        if let Err(message) = check(case, &outcome) {
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
    cell.clone_into(&mut rows[row][col]);
    let rows: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(","))).collect();
    format!("{{\"board\": [{}]}}", rows.join(",")).into_bytes()
}

/// `{"board": <PUZZLE's string rows with one cell replaced>}`.
fn char_board_with(row: usize, col: usize, cell: Value) -> Vec<u8> {
    let mut board = char_rows(PUZZLE);
    board[row][col] = cell;
    json_bytes(&json!({ "board": board }))
}

/// `{"board": "<PUZZLE with character `at` replaced by `with`>"}`.
fn line_with(at: usize, with: &str) -> Vec<u8> {
    let mut chars: Vec<String> = PUZZLE.chars().map(String::from).collect();
    with.clone_into(&mut chars[at]);
    json_bytes(&json!({ "board": chars.concat() }))
}

/// Malformed or hostile bodies for `path` (`/solve` or `/validate`), each with its answer.
fn body_cases(path: &str) -> Vec<Case> {
    let p = |name: &str, bytes: Vec<u8>| Case::post(name, path, bytes);
    let good = json_bytes(&json!({ "board": PUZZLE }));
    let pj = format!("\"{PUZZLE}\"");
    let deep = |open: &str, close: &str, n: usize| {
        format!("{{\"board\": {}{}}}", open.repeat(n), close.repeat(n)).into_bytes()
    };
    let mut ints = int_rows(PUZZLE);
    let rows_of = |f: &dyn Fn(&mut Vec<Value>)| {
        let mut rows = int_rows(PUZZLE).as_array().unwrap().clone();
        f(&mut rows);
        json_bytes(&json!({ "board": rows }))
    };
    ints[0] = json!(&PUZZLE[..9]);
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
        .problem(400, "invalid_request", "must be a JSON object"),
        p("unclosed nesting", b"{\"board\": ".iter().chain(&b"[".repeat(60_000)).copied().collect())
            .problem(400, "invalid_json", "recursion limit"),
        // --- The body is JSON, but not an object.
        p("body is a string", pj.clone().into_bytes())
            .problem(400, "invalid_request", "must be a JSON object"),
        p("body is a number", b"81".to_vec()).problem(400, "invalid_request", "must be a JSON object"),
        p("body is an array", format!("[{pj}]").into_bytes())
            .problem(400, "invalid_request", "must be a JSON object"),
        p("body is null", b"null".to_vec()).problem(400, "invalid_request", "must be a JSON object"),
        p("body is true", b" true ".to_vec()).problem(400, "invalid_request", "must be a JSON object"),
        // --- An object of the wrong shape.
        p("empty object", b"{}".to_vec()).problem(400, "invalid_request", "missing member \"board\""),
        p("extra field", format!("{{\"board\": {pj}, \"hint\": true}}").into_bytes())
            .problem(400, "invalid_request", "unknown member \"hint\""),
        p("duplicate board", format!("{{\"board\": {pj}, \"board\": {pj}}}").into_bytes())
            .problem(400, "invalid_request", "member \"board\" appears more than once"),
        p("key in another case", format!("{{\"Board\": {pj}}}").into_bytes())
            .problem(400, "invalid_request", "unknown member \"Board\""),
        p("key with a NUL", format!("{{\"board\\u0000\": {pj}}}").into_bytes())
            .problem(400, "invalid_request", "unknown member"),
        p("board is an object", br#"{"board": {"0": "53..7...."}}"#.to_vec())
            .problem(400, "invalid_board", "found an object"),
        p("board is a boolean", br#"{"board": false}"#.to_vec())
            .problem(400, "invalid_board", "found a boolean"),
        p("board is a number", br#"{"board": 534678912}"#.to_vec())
            .problem(400, "invalid_board", "found a number"),
        p("board is null", br#"{"board": null}"#.to_vec()).problem(400, "invalid_board", "found null"),
        // --- The board string is the wrong length or holds the wrong characters.
        p("empty board string", br#"{"board": ""}"#.to_vec()).problem(400, "invalid_board", "found 0 characters"),
        p("80 characters", json_bytes(&json!({"board": &PUZZLE[1..]})))
            .problem(400, "invalid_board", "found 80 characters"),
        p("82 characters", json_bytes(&json!({"board": format!("{PUZZLE}.")})))
            .problem(400, "invalid_board", "found 82 characters"),
        p("60,000 characters", json_bytes(&json!({"board": "1".repeat(60_000)})))
            .problem(400, "invalid_board", "found 60000 characters"),
        p("padded with spaces", json_bytes(&json!({"board": format!(" {PUZZLE}")})))
            .problem(400, "invalid_board", "found 82 characters"),
        p("full-width digit in the line", line_with(2, "１"))
            .problem(400, "invalid_board", "r1c3"),
        p("Arabic-Indic digit in the line", line_with(11, "٥"))
            .problem(400, "invalid_board", "r2c3"),
        p("superscript digit in the line", line_with(80, "⁹"))
            .problem(400, "invalid_board", "r9c9"),
        p("emoji in the line", line_with(40, "😀")).problem(400, "invalid_board", "r5c5"),
        p("NUL in the line", line_with(9, "\u{0}")).problem(400, "invalid_board", "r2c1"),
        p("RTL mark in the line", line_with(2, "\u{200F}")).problem(400, "invalid_board", "r1c3"),
        p("RTL override before the line", line_with(0, "\u{202E}5"))
            .problem(400, "invalid_board", "found 82 characters"),
        p("combining mark in the line", line_with(0, "5\u{0301}"))
            .problem(400, "invalid_board", "found 82 characters"),
        p("zero-width space in the line", line_with(3, "\u{200B}"))
            .problem(400, "invalid_board", "r1c4"),
        p("escaped NUL in the line", {
            let mut line = PUZZLE.to_string();
            line.replace_range(5..6, "");
            format!("{{\"board\": \"{line}\\u0000\"}}").into_bytes()
        })
        .problem(400, "invalid_board", "r9c9"),
        // --- Rows of the wrong shape.
        p("rows are strings", json_bytes(&json!({"board": PUZZLE.as_bytes().chunks(9).map(|r| String::from_utf8(r.to_vec()).unwrap()).collect::<Vec<_>>()})))
            .problem(400, "invalid_board", "row 1 must be an array"),
        p("first row a string", json_bytes(&json!({ "board": ints })))
            .problem(400, "invalid_board", "row 1 must be an array"),
        p("a row is null", rows_of(&|rows| rows[6] = Value::Null))
            .problem(400, "invalid_board", "row 7 must be an array of 9 cells, found null"),
        p("a row is an object", rows_of(&|rows| rows[8] = json!({"0": 5})))
            .problem(400, "invalid_board", "found an object"),
        p("no rows", br#"{"board": []}"#.to_vec()).problem(400, "invalid_board", "9 rows, found 0"),
        p("8 rows", rows_of(&|rows| {
            rows.pop();
        }))
        .problem(400, "invalid_board", "9 rows, found 8"),
        p("10 rows", rows_of(&|rows| rows.push(json!([0, 0, 0, 0, 0, 0, 0, 0, 0]))))
            .problem(400, "invalid_board", "9 rows, found 10"),
        p("81 rows of one", json_bytes(&json!({"board": vec![json!([0]); 81]})))
            .problem(400, "invalid_board", "9 rows, found 81"),
        p("ragged: a row of 8", rows_of(&|rows| {
            rows[4].as_array_mut().unwrap().pop();
        }))
        .problem(400, "invalid_board", "row 5 must have 9 cells, found 8"),
        p("ragged: an empty row", rows_of(&|rows| rows[8] = json!([])))
            .problem(400, "invalid_board", "row 9 must have 9 cells, found 0"),
        // --- Cells of the wrong type or value.
        p("cell is an object", int_board_with(2, 3, "{}")).problem(400, "invalid_board", "r3c4"),
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
            .problem(400, "invalid_board", "r1c3"),
        p("emoji cell", char_board_with(1, 1, json!("🧩"))).problem(400, "invalid_board", "r2c2"),
        p("flag emoji cell", char_board_with(1, 1, json!("🇫🇷")))
            .problem(400, "invalid_board", "exactly one character"),
        p("combining mark cell", char_board_with(0, 2, json!("4\u{0301}")))
            .problem(400, "invalid_board", "exactly one character"),
        p("NUL cell", char_board_with(0, 2, json!("\u{0}"))).problem(400, "invalid_board", "r1c3"),
        p("RTL mark cell", char_board_with(0, 2, json!("\u{200F}"))).problem(400, "invalid_board", "r1c3"),
        p("empty string cell", char_board_with(0, 2, json!(""))).problem(400, "invalid_board", "exactly one character"),
        p("space cell", char_board_with(0, 2, json!(" "))).problem(400, "invalid_board", "r1c3"),
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
async fn hostile_bodies_on_grade_get_the_documented_problem() {
    run_all(&body_cases("/grade")).await;
}

#[tokio::test]
async fn hostile_bodies_on_hint_get_the_documented_problem() {
    run_all(&body_cases("/hint")).await;
}

#[tokio::test]
async fn hostile_bodies_on_explain_get_the_documented_problem() {
    run_all(&body_cases("/explain")).await;
}

/// Odd query strings on `/generate`: each is a puzzle or a 400 `invalid_parameter` naming
/// what it read as the parameter at fault, never anything else.
#[tokio::test]
async fn hostile_queries_on_generate_get_a_puzzle_or_name_the_parameter() {
    let long = "9".repeat(10_000);
    let cases: Vec<(String, Option<&str>)> = vec![
        (String::new(), None),
        ("&&".into(), None),
        ("seed=1&".into(), None),
        ("seed=01".into(), None),
        ("=".into(), Some("")),
        ("%".into(), Some("%")),
        ("a=b=c".into(), Some("a")),
        ("seed=1=2".into(), Some("seed")),
        ("difficulty=easy;seed=1".into(), Some("difficulty")),
        ("+difficulty=easy".into(), Some(" difficulty")),
        ("difficulty=%FF".into(), Some("difficulty")),
        ("seed=%00".into(), Some("seed")),
        ("seed=1%202".into(), Some("seed")),
        ("seed=%EF%BC%91".into(), Some("seed")),
        ("SEED=1".into(), Some("SEED")),
        (format!("seed={long}"), Some("seed")),
        (format!("{long}=1"), Some(long.as_str())),
        (
            "difficulty=easy&form=numbers&form=chars".into(),
            Some("form"),
        ),
    ];
    let app = app();
    for (query, parameter) in cases {
        let case = format!("?{}", &query[..query.len().min(40)]);
        let answer = get(&app, &format!("/generate?{query}")).await;
        match parameter {
            None => assert_eq!(answer.status, StatusCode::OK, "{case}: {:?}", answer.body),
            Some(parameter) => {
                answer.assert_problem(400, "invalid_parameter", &case);
                assert_eq!(answer.body["parameter"], parameter, "{case}");
            }
        }
    }
}

#[tokio::test]
async fn hostile_batch_bodies_get_the_documented_problem() {
    let path = "/solve/batch";
    let p = |name: &str, bytes: &[u8]| Case::post(name, path, bytes.to_vec());
    let cases = vec![
        p("empty body", b"").problem(400, "invalid_json", "EOF"),
        p("boards is a string", br#"{"boards": "53..7"}"#).problem(
            400,
            "invalid_request",
            "must be an array",
        ),
        p("boards is an object", br#"{"boards": {"0": "53..7"}}"#).problem(
            400,
            "invalid_request",
            "must be an array",
        ),
        p("boards is null", br#"{"boards": null}"#).problem(
            400,
            "invalid_request",
            "must be an array, found null",
        ),
        p("no boards", br#"{"boards": []}"#).problem(400, "invalid_request", "1 to 1000"),
        p("board instead of boards", br#"{"board": []}"#).problem(
            400,
            "invalid_request",
            "unknown member \"board\"",
        ),
        p("duplicate boards", br#"{"boards": [], "boards": []}"#).problem(
            400,
            "invalid_request",
            "member \"boards\" appears more than once",
        ),
        p(
            "body is an array of boards",
            br#"[".........", "........."]"#,
        )
        .problem(400, "invalid_request", "must be a JSON object"),
        p(
            "500k nested arrays as the body (1 MB)",
            &[b"[".repeat(500_000), b"]".repeat(500_000)].concat(),
        )
        .problem(400, "invalid_request", "must be a JSON object"),
        p("500k unclosed arrays as the body", &b"[".repeat(500_000)).problem(
            400,
            "invalid_json",
            "recursion limit",
        ),
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
        .problem(400, "invalid_request", "found 1001"),
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
    let answer = post_json(&app(), "/solve/batch", &json!({ "boards": boards })).await;
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
    let routes = documented_routes();
    assert_eq!(routes.len(), 15, "{routes:?}");
    // The playground's page and assets answer GET like the API's GET routes.
    let page: Vec<&str> = sudoku_service::http::page::paths().collect();
    assert!(page.contains(&"/"), "{page:?}");
    let mut cases = Vec::new();
    for method in &methods {
        for path in routes
            .iter()
            .map(String::as_str)
            .chain(page.iter().copied())
            .chain(unknown)
        {
            let posts = matches!(
                path,
                "/solve"
                    | "/solve/batch"
                    | "/validate"
                    | "/grade"
                    | "/hint"
                    | "/explain"
                    | "/render"
                    | "/scan"
            );
            // GET (a booklet of new puzzles) and POST (a booklet of the boards sent).
            let gets_and_posts = path == "/booklet";
            let known = routes.iter().any(|route| route == path) || page.contains(&path);
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
            } else if (posts || gets_and_posts) && *method == Method::POST {
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
    assert_eq!(cases.len(), 10 * (15 + page.len() + 10));
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
        ("/grade", "POST"),
        ("/hint", "POST"),
        ("/explain", "POST"),
        ("/scan", "POST"),
        ("/generate", "GET,HEAD"),
        ("/render", "POST"),
        ("/booklet", "GET,HEAD,POST"),
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
