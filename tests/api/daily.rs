//! `GET /daily` through the router: the same puzzle from replicas that share nothing but
//! the secret, a different one for another day, difficulty or secret; what the puzzle is
//! (unique, of the difficulty asked for) checked with the core; the caching headers under a
//! clock pinned to a known instant; and every refusal.

use std::time::{Duration, SystemTime};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use sudoku::{Difficulty, GradeOptions, Solver, Symmetry, Verdict, generate, grade};
use sudoku_service::config::{Config, DailySecret};
use sudoku_service::http::clock::Clock;
use sudoku_service::http::daily::DailyPuzzles;
use sudoku_service::http::{AppState, router};
use time::{Date, Month};
use tower::ServiceExt;

use super::generate::patient;
use crate::helpers::*;

/// 2026-03-14T18:30:15Z: 5 h 29 min 45 s, 19,785 seconds, before the day ends.
const PINNED_SECS: u64 = 1_773_513_015;
const PINNED_DAY: &str = "2026-03-14";
const SECONDS_LEFT: u64 = 5 * 3600 + 29 * 60 + 45;

fn pinned() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(PINNED_SECS)
}

/// A replica: a router of its own over `config`, whose clock reads `now`.
fn replica(config: &Config, now: SystemTime) -> Router {
    let mut state = AppState::new(config);
    state.clock = Clock::fixed(now);
    router(state)
}

fn with_secret(secret: &str) -> Config {
    Config {
        daily_secret: Some(DailySecret::from(secret.to_owned())),
        ..patient()
    }
}

/// `GET path` with extra request headers.
async fn get_with(app: &Router, path: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = Request::get(path).header("host", "localhost");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    read_answer(response).await.0
}

/// The 200 answer of `path`, its body checked as a daily puzzle of `difficulty` on `date`:
/// one solution, the one sent, of that difficulty, with rotational symmetry.
async fn daily_puzzle(app: &Router, path: &str, difficulty: Difficulty, date: &str) -> Value {
    let answer = get(app, path).await;
    assert_eq!(answer.status, StatusCode::OK, "{path}: {:?}", answer.body);
    assert_eq!(answer.content_type(), "application/json", "{path}");
    let body = answer.body;
    assert_eq!(body["date"], date, "{path}");
    assert_eq!(body["difficulty"], difficulty.as_str(), "{path}");
    let puzzle = grid_of_any_form(&body["puzzle"]).unwrap_or_else(|e| panic!("{path}: {e}"));
    let solution = grid_of_any_form(&body["solution"]).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(
        Solver::default().analyze(&puzzle),
        Ok(Verdict::Unique(solution)),
        "{path}: one solution, the one sent"
    );
    let graded = grade(&puzzle, &GradeOptions::default()).unwrap();
    assert_eq!(graded.difficulty, difficulty, "{path}");
    assert!(Symmetry::Rotational.holds_for(&puzzle), "{path}: {puzzle}");
    body
}

#[tokio::test]
async fn two_replicas_with_the_same_secret_answer_the_same_puzzle() {
    let config = with_secret("shared by both replicas");
    let path = format!("/daily?difficulty=medium&date={PINNED_DAY}");
    let first = daily_puzzle(
        &replica(&config, pinned()),
        &path,
        Difficulty::Medium,
        PINNED_DAY,
    )
    .await;
    let second = daily_puzzle(
        &replica(&config, pinned()),
        &path,
        Difficulty::Medium,
        PINNED_DAY,
    )
    .await;
    assert_eq!(first, second);
}

#[tokio::test]
async fn the_puzzle_is_the_generators_from_the_days_seed() {
    let config = with_secret("s");
    let body = daily_puzzle(
        &replica(&config, pinned()),
        "/daily?difficulty=easy&date=2025-07-01",
        Difficulty::Easy,
        "2025-07-01",
    )
    .await;
    let date = Date::from_calendar_date(2025, Month::July, 1).unwrap();
    let options = DailyPuzzles::new(config.daily_secret.as_ref()).options(date, Difficulty::Easy);
    let made = generate(&options, &mut || true).unwrap();
    assert_eq!(body["puzzle"], made.puzzle.to_string());
    assert_eq!(body["seed"], made.seed.to_string());
}

#[tokio::test]
async fn another_difficulty_day_or_secret_gives_another_puzzle() {
    let app = replica(&with_secret("one"), pinned());
    let other_secret = replica(&with_secret("two"), pinned());
    let no_secret = replica(&patient(), pinned());
    let medium = format!("/daily?difficulty=medium&date={PINNED_DAY}");
    let puzzles = [
        daily_puzzle(&app, &medium, Difficulty::Medium, PINNED_DAY).await,
        daily_puzzle(
            &app,
            &format!("/daily?difficulty=easy&date={PINNED_DAY}"),
            Difficulty::Easy,
            PINNED_DAY,
        )
        .await,
        daily_puzzle(
            &app,
            &format!("/daily?difficulty=hard&date={PINNED_DAY}"),
            Difficulty::Hard,
            PINNED_DAY,
        )
        .await,
        daily_puzzle(
            &app,
            "/daily?difficulty=medium&date=2026-03-13",
            Difficulty::Medium,
            "2026-03-13",
        )
        .await,
        daily_puzzle(&other_secret, &medium, Difficulty::Medium, PINNED_DAY).await,
        daily_puzzle(&no_secret, &medium, Difficulty::Medium, PINNED_DAY).await,
    ];
    let mut boards: Vec<&str> = puzzles
        .iter()
        .map(|body| body["puzzle"].as_str().unwrap())
        .collect();
    boards.sort_unstable();
    boards.dedup();
    assert_eq!(boards.len(), puzzles.len(), "{boards:?}");
}

#[tokio::test]
async fn without_a_date_it_is_todays_medium_puzzle_by_the_clock() {
    let app = replica(&patient(), pinned());
    let today = daily_puzzle(&app, "/daily", Difficulty::Medium, PINNED_DAY).await;
    let dated = get(&app, &format!("/daily?date={PINNED_DAY}&difficulty=medium")).await;
    assert_eq!(today, dated.body);
    // A second later by a clock that has crossed midnight, "today" is the next day.
    let next_day = replica(&patient(), pinned() + Duration::from_secs(SECONDS_LEFT + 1));
    let tomorrow = daily_puzzle(&next_day, "/daily", Difficulty::Medium, "2026-03-15").await;
    assert_ne!(today["puzzle"], tomorrow["puzzle"]);
}

#[tokio::test]
async fn the_answer_is_cacheable_until_midnight_utc() {
    let app = replica(&patient(), pinned());
    for path in [
        "/daily?difficulty=easy",
        "/daily?difficulty=easy&date=2026-01-01",
    ] {
        let answer = get(&app, path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(
            answer.headers["cache-control"],
            format!("public, max-age={SECONDS_LEFT}").as_str(),
            "{path}"
        );
    }
    // A second before midnight, a cache may keep it for that second only.
    let late = replica(&patient(), pinned() + Duration::from_secs(SECONDS_LEFT - 1));
    let answer = get(&late, "/daily?difficulty=easy").await;
    assert_eq!(answer.headers["cache-control"], "public, max-age=1");
}

#[tokio::test]
async fn behind_api_keys_only_the_callers_own_cache_may_keep_it() {
    let keys = TempFile::with_contents("alpha daily-k3y-for-the-cache-test\n");
    let config = Config {
        api_keys_file: Some(keys.path().to_path_buf()),
        ..patient()
    };
    let app = replica(&config, pinned());
    let answer = get_with(
        &app,
        "/daily?difficulty=easy",
        &[("authorization", "Bearer daily-k3y-for-the-cache-test")],
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!(
        answer.headers["cache-control"],
        format!("private, max-age={SECONDS_LEFT}").as_str()
    );
}

#[tokio::test]
async fn a_matching_if_none_match_gets_304_without_a_body() {
    let app = replica(&patient(), pinned());
    let path = "/daily?difficulty=easy";
    let first = get(&app, path).await;
    let tag = first.headers["etag"].to_str().unwrap().to_owned();
    assert!(
        tag.len() == 34 && tag.starts_with('"') && tag.ends_with('"'),
        "a strong tag: {tag}"
    );
    let (not_modified, bytes) = {
        let request = Request::get(path)
            .header("host", "localhost")
            .header("if-none-match", format!("\"stale\", {tag}"))
            .body(Body::empty())
            .unwrap();
        read_answer(app.clone().oneshot(request).await.unwrap()).await
    };
    assert_eq!(not_modified.status, StatusCode::NOT_MODIFIED);
    assert!(bytes.is_empty());
    assert_eq!(not_modified.headers["etag"], tag.as_str());
    assert_eq!(
        not_modified.headers["cache-control"],
        format!("public, max-age={SECONDS_LEFT}").as_str()
    );
    let stale = get_with(&app, path, &[("if-none-match", "\"stale\"")]).await;
    assert_eq!(stale.status, StatusCode::OK);
    assert_eq!(stale.body, first.body);
}

#[tokio::test]
async fn the_tag_differs_with_the_day_the_difficulty_and_the_form() {
    let app = replica(&patient(), pinned());
    let mut tags = Vec::new();
    for path in [
        "/daily?difficulty=easy",
        "/daily?difficulty=easy&form=numbers",
        "/daily?difficulty=medium",
        "/daily?difficulty=easy&date=2026-03-13",
    ] {
        let answer = get(&app, path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        let tag = answer.headers["etag"].to_str().unwrap().to_owned();
        // The same answer again carries the same tag.
        assert_eq!(
            get(&app, path).await.headers["etag"],
            tag.as_str(),
            "{path}"
        );
        tags.push(tag);
    }
    tags.sort_unstable();
    tags.dedup();
    assert_eq!(tags.len(), 4);
}

#[tokio::test]
async fn a_day_after_today_is_not_out_yet() {
    let app = replica(&patient(), pinned());
    for path in [
        "/daily?date=2026-03-15",
        "/daily?date=2027-01-01&difficulty=easy",
        "/daily?date=9999-12-31",
    ] {
        let answer = get(&app, path).await;
        answer.assert_problem(404, "date_in_future", path);
        assert!(
            answer.body["detail"].as_str().unwrap().contains(PINNED_DAY),
            "{path}: {:?}",
            answer.body
        );
    }
}

#[tokio::test]
async fn a_malformed_or_too_early_date_or_a_bad_parameter_is_named() {
    let app = replica(&patient(), pinned());
    for (path, parameter) in [
        ("/daily?date=2026-3-14", "date"),
        ("/daily?date=14.03.2026", "date"),
        ("/daily?date=2026-02-29", "date"),
        ("/daily?date=2026-03-14T00:00:00Z", "date"),
        ("/daily?date=", "date"),
        ("/daily?date=1999-12-31", "date"),
        ("/daily?date=2026-03-14&date=2026-03-13", "date"),
        ("/daily?difficulty=impossible", "difficulty"),
        ("/daily?form=line", "form"),
        ("/daily?seed=7", "seed"),
    ] {
        let answer = get(&app, path).await;
        answer.assert_problem(400, "invalid_parameter", path);
        assert_eq!(answer.body["parameter"], parameter, "{path}");
    }
}

#[tokio::test]
async fn the_first_day_of_the_archive_has_its_puzzle() {
    let app = replica(&patient(), pinned());
    daily_puzzle(
        &app,
        "/daily?date=2000-01-01&difficulty=easy",
        Difficulty::Easy,
        "2000-01-01",
    )
    .await;
}
