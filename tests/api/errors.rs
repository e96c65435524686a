//! The main error paths of the board routes through the router, once each: malformed
//! bodies located by a pointer, content type and size checked before the board, unknown
//! paths and wrong methods. `hostile.rs` is the wide net over the same ground.

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

#[tokio::test]
async fn malformed_requests_are_400_problems_that_point_at_the_fault() {
    let app = app();
    let mut ten = int_rows(PUZZLE);
    ten[2][7] = json!(10);
    let mut negative = int_rows(PUZZLE);
    negative[1][1] = json!(-1);
    let mut float = int_rows(PUZZLE);
    float[0][0] = json!(1.5);
    let mut two_chars = char_rows(PUZZLE);
    two_chars[8][8] = json!("55");
    let mut x = char_rows(PUZZLE);
    x[4][4] = json!("x");
    let mut ragged = int_rows(PUZZLE);
    ragged[3] = json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
    let mut nested = int_rows(PUZZLE);
    nested[5][5] = json!([[1]]);
    let eight_rows = Value::Array(int_rows(PUZZLE).as_array().unwrap()[..8].to_vec());
    // (case, body, code, expected pointer of the first error when the board is at fault)
    let cases: Vec<(&str, Vec<u8>, &str, Option<&str>)> = vec![
        ("not json", b"{board".to_vec(), "invalid_json", None),
        ("empty body", b"".to_vec(), "invalid_json", None),
        (
            "truncated",
            br#"{"board": "53..7"#.to_vec(),
            "invalid_json",
            None,
        ),
        (
            "invalid utf-8",
            b"{\"board\": \"\xff\xfe\"}".to_vec(),
            "invalid_json",
            None,
        ),
        (
            "missing board",
            br"{}".to_vec(),
            "invalid_request",
            Some("/board"),
        ),
        (
            "extra field",
            br#"{"board": "", "x": 1}"#.to_vec(),
            "invalid_request",
            Some("/x"),
        ),
        (
            "array body",
            br"[1, 2]".to_vec(),
            "invalid_request",
            Some(""),
        ),
        (
            "board is a number",
            br#"{"board": 10}"#.to_vec(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "board is null",
            br#"{"board": null}"#.to_vec(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "short string",
            br#"{"board": "123"}"#.to_vec(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "bad character",
            json!({"board": format!("x{}", &PUZZLE[1..])})
                .to_string()
                .into_bytes(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "eight rows",
            json!({ "board": eight_rows }).to_string().into_bytes(),
            "invalid_board",
            Some("/board"),
        ),
        (
            "row of ten",
            json!({ "board": ragged }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/3"),
        ),
        (
            "ten",
            json!({ "board": ten }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/2/7"),
        ),
        (
            "minus one",
            json!({ "board": negative }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/1/1"),
        ),
        (
            "float",
            json!({ "board": float }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/0/0"),
        ),
        (
            "\"55\"",
            json!({ "board": two_chars }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/8/8"),
        ),
        (
            "\"x\"",
            json!({ "board": x }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/4/4"),
        ),
        (
            "nested too deep",
            json!({ "board": nested }).to_string().into_bytes(),
            "invalid_board",
            Some("/board/5/5"),
        ),
        (
            "deep nesting",
            format!("{{\"board\": {}{}}}", "[".repeat(5000), "]".repeat(5000)).into_bytes(),
            "invalid_json",
            None,
        ),
    ];
    for path in ["/solve", "/validate"] {
        for (case, body, code, pointer) in &cases {
            let answer = call(
                &app,
                Method::POST,
                path,
                Some("application/json"),
                body.clone(),
            )
            .await;
            answer.assert_problem(400, code, &format!("{path} {case}"));
            // The API's words, not the parser's: no "at line 1 column 9", no backticks.
            if *code != "invalid_json" {
                let detail = answer.body["detail"].as_str().unwrap_or_default();
                assert!(
                    !detail.contains(" column ") && !detail.contains('`'),
                    "{path} {case}: {detail}"
                );
            }
            if let Some(pointer) = pointer {
                assert_eq!(
                    answer.body["errors"][0]["pointer"], *pointer,
                    "{path} {case}: {:?}",
                    answer.body
                );
            }
        }
    }
}

#[tokio::test]
async fn sentences_name_rows_and_cells_from_one_while_fields_count_from_zero() {
    let app = app();
    let mut rows: Vec<Vec<Value>> = vec![vec![json!(0); 9]; 9];
    rows[0][2] = json!(10);
    let answer = call(
        &app,
        Method::POST,
        "/solve",
        Some("application/json"),
        json!({ "board": rows }).to_string(),
    )
    .await;
    answer.assert_problem(400, "invalid_board", "ten at r1c3");
    let error = &answer.body["errors"][0];
    assert_eq!(
        (error["row"].clone(), error["col"].clone()),
        (json!(0), json!(2))
    );
    assert_eq!(error["pointer"], "/board/0/2");
    assert!(
        error["message"].as_str().unwrap().starts_with("cell r1c3:"),
        "{error}"
    );
    let line = format!("x{}", &PUZZLE[1..]);
    let answer = call(
        &app,
        Method::POST,
        "/solve",
        Some("application/json"),
        json!({ "board": line }).to_string(),
    )
    .await;
    let detail = answer.body["detail"].as_str().unwrap();
    assert!(detail.contains("at r1c1 (character 1 of 81"), "{detail}");
    let mut short: Vec<Vec<Value>> = vec![vec![json!(0); 9]; 9];
    short[8].pop();
    let answer = call(
        &app,
        Method::POST,
        "/solve",
        Some("application/json"),
        json!({ "board": short }).to_string(),
    )
    .await;
    assert_eq!(answer.body["detail"], "row 9 must have 9 cells, found 8");
    assert_eq!(answer.body["errors"][0]["row"], 8);
}

#[tokio::test]
async fn content_type_and_size_are_checked_before_the_board() {
    let app = app();
    let body = json!({ "board": PUZZLE }).to_string();
    for (case, content_type) in [
        ("missing", None),
        ("text/plain", Some("text/plain")),
        ("form", Some("application/x-www-form-urlencoded")),
    ] {
        let answer = call(&app, Method::POST, "/solve", content_type, body.clone()).await;
        answer.assert_problem(415, "unsupported_media_type", case);
    }
    let charset = call(
        &app,
        Method::POST,
        "/solve",
        Some("application/json; charset=utf-8"),
        body,
    )
    .await;
    assert_eq!(charset.status, StatusCode::OK);
    let huge = format!("{{\"board\": \"{}\"}}", "1".repeat(100_000));
    let answer = call(&app, Method::POST, "/solve", Some("application/json"), huge).await;
    answer.assert_problem(413, "payload_too_large", "100 kB");
    assert!(answer.body["detail"].as_str().unwrap().contains("65536"));
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods_are_problems() {
    let app = app();
    let answer = call(&app, Method::GET, "/nowhere", None, Body::empty()).await;
    answer.assert_problem(404, "not_found", "404");
    for (method, path, allow) in [
        (Method::GET, "/solve", "POST"),
        (Method::DELETE, "/validate", "POST"),
        (Method::PUT, "/solve/batch", "POST"),
        (Method::POST, "/healthz", "GET,HEAD"),
    ] {
        let answer = call(&app, method.clone(), path, None, Body::empty()).await;
        answer.assert_problem(405, "method_not_allowed", &format!("{method} {path}"));
        assert_eq!(answer.headers["allow"], allow, "{method} {path}");
    }
}
