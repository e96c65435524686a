//! `POST /scan`: a committed photo read through the real server, the multipart upload, the
//! board forms and `?solve=true`, and every way an image can be refused.

use std::io::Cursor;

use axum::http::{Method, StatusCode};
use serde_json::Value;
use sudoku_service::config::Config;

use crate::helpers::*;

/// A photo of the dataset's training split, and its givens.
const PHOTO: &[u8] = include_bytes!("../../data/photos/images/image1.jpg");
const PHOTO_GIVENS: &str =
    "...7...8..9...31....68.5.7..2.6...49...2...5...8.4...7...9...3.37......61.5..4...";

/// (case, config, path, content type, body, status, code)
type RefusalCase = (
    &'static str,
    Config,
    &'static str,
    Option<&'static str>,
    Vec<u8>,
    u16,
    &'static str,
);

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::GrayImage::from_pixel(width, height, image::Luma([200]))
        .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

#[tokio::test]
async fn scan_reads_the_givens_of_a_committed_photo_through_the_real_server() {
    let server = TestServer::start(Config::default()).await;
    let response = reqwest::Client::new()
        .post(server.url("/scan"))
        .header("content-type", "image/jpeg")
        .body(PHOTO)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["board"], PHOTO_GIVENS);
    assert_eq!(body["entries"], ".".repeat(81));
    let cells = body["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 81);
    assert_eq!(cells[3]["kind"], "given");
    assert_eq!(cells[3]["digit"], 7);
    assert_eq!(
        (cells[3]["row"].clone(), cells[3]["col"].clone()),
        (0.into(), 3.into())
    );
    assert_eq!(cells[0]["kind"], "empty");
    assert_eq!(cells[0]["digit"], Value::Null);
    let corners = body["corners"].as_array().unwrap();
    assert_eq!(corners.len(), 4);
    // The grid's top-left corner is in the photo's top-left quarter, its bottom-right in
    // the bottom-right one (the photo is 640x480).
    assert!(corners[0][0].as_f64().unwrap() < 320.0 && corners[0][1].as_f64().unwrap() < 240.0);
    assert!(corners[2][0].as_f64().unwrap() > 320.0 && corners[2][1].as_f64().unwrap() > 240.0);
    assert!(body.get("solution").is_none());
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn scan_takes_the_image_field_of_a_multipart_form() {
    let boundary = "scan-boundary-7";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"p.jpg\"\r\n\
             Content-Type: image/jpeg\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(PHOTO);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={boundary}");
    let answer = call(&app(), Method::POST, "/scan", Some(&content_type), body).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.body["board"], PHOTO_GIVENS);
}

#[tokio::test]
async fn scan_answers_in_the_form_asked_for_and_solves_when_asked() {
    let answer = call(
        &app(),
        Method::POST,
        "/scan?form=numbers&solve=true",
        Some("image/jpeg"),
        PHOTO,
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(answer.body["board"], int_rows(PHOTO_GIVENS));
    let solution = &answer.body["solution"];
    assert_eq!(solution["unique"], true);
    let rows = solution["solution"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    // The solution keeps every given.
    assert_eq!(rows[0][3], 7);
    assert_eq!(rows[0][7], 8);
}

#[tokio::test]
async fn scan_refuses_each_bad_image_with_its_own_problem() {
    let small_body = Config {
        scan_body_limit: 1000,
        ..Config::default()
    };
    let few_pixels = Config {
        scan_max_pixels: 100 * 100,
        ..Config::default()
    };
    let photo = PHOTO.to_vec();
    let truncated = PHOTO[..PHOTO.len() / 3].to_vec();
    let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec();
    // (case, config, path, content type, body, status, code)
    let cases: Vec<RefusalCase> = vec![
        (
            "text as a PNG",
            Config::default(),
            "/scan",
            Some("image/png"),
            b"not a png".to_vec(),
            400,
            "invalid_image",
        ),
        (
            "a truncated JPEG",
            Config::default(),
            "/scan",
            Some("image/jpeg"),
            truncated,
            400,
            "invalid_image",
        ),
        (
            "an empty body",
            Config::default(),
            "/scan",
            Some("image/jpeg"),
            Vec::new(),
            400,
            "invalid_image",
        ),
        (
            "a GIF",
            Config::default(),
            "/scan",
            Some("image/gif"),
            gif.clone(),
            415,
            "unsupported_media_type",
        ),
        (
            "a GIF sent as a PNG",
            Config::default(),
            "/scan",
            Some("image/png"),
            gif,
            415,
            "unsupported_media_type",
        ),
        (
            "no content type",
            Config::default(),
            "/scan",
            None,
            photo.clone(),
            415,
            "unsupported_media_type",
        ),
        (
            "JSON",
            Config::default(),
            "/scan",
            Some("application/json"),
            b"{}".to_vec(),
            415,
            "unsupported_media_type",
        ),
        (
            "over the body limit",
            small_body,
            "/scan",
            Some("image/jpeg"),
            photo.clone(),
            413,
            "payload_too_large",
        ),
        (
            "over the pixel limit",
            few_pixels,
            "/scan",
            Some("image/jpeg"),
            photo.clone(),
            413,
            "image_too_large",
        ),
        (
            "a blank page",
            Config::default(),
            "/scan",
            Some("image/png"),
            png(200, 150),
            422,
            "no_grid_found",
        ),
        (
            "an unknown parameter",
            Config::default(),
            "/scan?colour=red",
            Some("image/jpeg"),
            photo.clone(),
            400,
            "invalid_parameter",
        ),
        (
            "a bad form",
            Config::default(),
            "/scan?form=hex",
            Some("image/jpeg"),
            photo,
            400,
            "invalid_parameter",
        ),
    ];
    for (case, config, path, content_type, body, status, code) in cases {
        let answer = call(&app_with(&config), Method::POST, path, content_type, body).await;
        answer.assert_problem(status, code, case);
    }
}

#[tokio::test]
async fn a_header_claiming_a_huge_image_is_refused_before_decoding() {
    // A PNG whose header declares 100,000 x 100,000 pixels and holds none.
    let mut bytes = png(1, 1);
    bytes[16..20].copy_from_slice(&100_000_u32.to_be_bytes());
    bytes[20..24].copy_from_slice(&100_000_u32.to_be_bytes());
    // The header's checksum, recomputed so that only the size is a lie.
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    let answer = call(&app(), Method::POST, "/scan", Some("image/png"), bytes).await;
    answer.assert_problem(413, "image_too_large", "a 10-gigapixel header");
}

/// CRC-32 (ISO-HDLC), as PNG chunks carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0_u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[tokio::test]
async fn fuzz_regressions_of_the_image_path_never_fail_the_server() {
    // The inputs of `tests/data/fuzz/scan_image` (see `scripts/ci/fuzz.sh`), each sent as a
    // JPEG: refused with a documented problem, never a 500.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/scan_image");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "{} holds no inputs", dir.display());
    let expected = [
        ("gif", 415, "unsupported_media_type"),
        ("jpeg-header-only", 400, "invalid_image"),
        ("png-1x1", 422, "no_grid_found"),
        ("png-32x32-black", 422, "no_grid_found"),
        ("png-header-claims-10-gigapixels", 413, "image_too_large"),
        ("text", 400, "invalid_image"),
        ("truncated-jpeg", 400, "invalid_image"),
        ("webp-riff-only", 400, "invalid_image"),
    ];
    let app = app();
    for path in &inputs {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let answer = call(
            &app,
            Method::POST,
            "/scan",
            Some("image/jpeg"),
            std::fs::read(path).unwrap(),
        )
        .await;
        let (_, status, code) = expected
            .iter()
            .find(|(input, ..)| *input == name)
            .unwrap_or_else(|| panic!("{name}: no expected answer"));
        answer.assert_problem(*status, code, &name);
    }
}

#[tokio::test]
async fn boards_drawn_by_render_scan_back_to_the_same_givens() {
    // Printing and scanning close the loop through the real server: a sheet from /render is
    // read back by /scan, at every width from a thumbnail to a print (the scanner's crate
    // checks many more boards, and CI's print check pages of booklets drawn by pdftoppm).
    let puzzles = [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "..76...2...1..8..39..2...6.8..3.......9.1...6.25...7...1.8........15.2...3...4..9",
    ];
    let server = TestServer::start(Config::default()).await;
    let client = reqwest::Client::new();
    for puzzle in puzzles {
        for size_px in [300, 600, 1200] {
            let rendered = client
                .post(server.url("/render"))
                .json(&serde_json::json!({"board": puzzle, "format": "png", "size_px": size_px}))
                .send()
                .await
                .unwrap();
            assert_eq!(rendered.status(), StatusCode::OK);
            let png = rendered.bytes().await.unwrap();
            let scanned = client
                .post(server.url("/scan"))
                .header("content-type", "image/png")
                .body(png)
                .send()
                .await
                .unwrap();
            assert_eq!(scanned.status(), StatusCode::OK, "{puzzle} at {size_px} px");
            let body: Value = scanned.json().await.unwrap();
            assert_eq!(body["board"], puzzle, "{size_px} px");
            assert_eq!(body["entries"], ".".repeat(81), "{puzzle} at {size_px} px");
        }
    }
    server.shutdown().await.unwrap();
}
