//! The daily puzzle: one puzzle per day and difficulty, the same on every replica with no
//! state shared between them.
//!
//! The generator is deterministic in its seed, so the day's puzzle is the generator's from a
//! seed every replica derives alike: the first eight bytes of HMAC-SHA-256 over the date and
//! the difficulty, keyed with the operator's secret (`--daily-secret`). Without the secret,
//! nobody can compute a day's puzzle before the service hands it out; without a secret
//! set, anyone with the source can, which is fine for a private instance.
//!
//! Every caller of a day asks for the same few puzzles, so the last [`KEPT`] made are kept,
//! and callers that ask for one while it is being made wait for that one job instead of
//! starting their own (at midnight, every client asks at once).

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use time::{Date, OffsetDateTime};
use tokio::sync::OnceCell;

use super::error::ApiError;
use super::generator::Generator;
use super::wire::generate::MAX_ATTEMPTS;
use crate::config::DailySecret;
use sudoku::{Difficulty, GenerateOptions, Generated, Symmetry};

/// Daily puzzles kept made: today's five difficulties and those of the days before, for
/// the clients still on yesterday's and a short archive walk.
pub const KEPT: usize = 32;

/// What every replica's generator is asked for, beside the seed and the difficulty. Changing
/// any of it changes every day's puzzle, as would a change to the seed's message.
const SYMMETRY: Symmetry = Symmetry::Rotational;

/// What the seed is the HMAC of, before the date and the difficulty: names the scheme, so
/// that another use of the same secret never yields these seeds.
const SEED_CONTEXT: &str = "sudoku-service daily puzzle v1";

/// The day's puzzles: the key their seeds come from, and the last ones made.
pub struct DailyPuzzles {
    key: Hmac<Sha256>,
    made: Mutex<VecDeque<(Day, Place)>>,
}

/// Where one daily puzzle is kept: empty until made, shared by everyone waiting for it.
type Place = Arc<OnceCell<Arc<Generated>>>;

/// One daily puzzle's name: its date and difficulty.
type Day = (Date, Difficulty);

impl DailyPuzzles {
    /// The daily puzzles under `secret` (none: an empty key, so the seeds are public).
    ///
    /// # Panics
    /// Never: HMAC takes keys of any length (RFC 2104 hashes a long one, pads a short one).
    pub fn new(secret: Option<&DailySecret>) -> DailyPuzzles {
        let secret = secret.map_or(&[][..], DailySecret::as_bytes);
        DailyPuzzles {
            key: Hmac::new_from_slice(secret).expect("HMAC takes keys of any length"),
            made: Mutex::new(VecDeque::with_capacity(KEPT + 1)),
        }
    }

    /// The seed of the puzzle of `date` at `difficulty`.
    pub fn seed(&self, date: Date, difficulty: Difficulty) -> u64 {
        let mut mac = self.key.clone();
        mac.update(format!("{SEED_CONTEXT}\n{date}\n{}", difficulty.as_str()).as_bytes());
        let tag = mac.finalize().into_bytes();
        let mut first = [0; 8];
        first.copy_from_slice(&tag[..8]);
        u64::from_be_bytes(first)
    }

    /// The generator's options for the puzzle of `date` at `difficulty`.
    pub fn options(&self, date: Date, difficulty: Difficulty) -> GenerateOptions {
        GenerateOptions {
            difficulty: Some(difficulty),
            symmetry: SYMMETRY,
            minimal: true,
            seed: self.seed(date, difficulty),
            max_attempts: MAX_ATTEMPTS,
        }
    }

    /// The puzzle of `date` at `difficulty`: kept, being made for another caller (then
    /// this one waits for it), or made now on `generator`'s pool, no attempt after the
    /// first starting past `deadline`.
    ///
    /// # Errors
    /// 503 `overloaded` when the pool's line is full, 503 `search_limit` when the deadline
    /// passed first (the next request tries again).
    pub async fn puzzle(
        &self,
        generator: &Arc<Generator>,
        date: Date,
        difficulty: Difficulty,
        deadline: Instant,
    ) -> Result<Arc<Generated>, ApiError> {
        let cell = self.cell((date, difficulty));
        let options = self.options(date, difficulty);
        cell.get_or_try_init(|| async move {
            let made = generator
                .generate(options, true, deadline)
                .await?
                .map_err(ApiError::DailyLimit)?;
            Ok(Arc::new(made))
        })
        .await
        .cloned()
    }

    /// The place of `day`'s puzzle, made empty (and the oldest dropped past [`KEPT`]) when
    /// there is none yet.
    fn cell(&self, day: Day) -> Place {
        // A panic while the lock was held left the list as it was between two operations.
        let mut made = self.made.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, cell)) = made.iter().find(|(kept, _)| *kept == day) {
            return Arc::clone(cell);
        }
        let cell = Arc::new(OnceCell::new());
        made.push_back((day, Arc::clone(&cell)));
        if made.len() > KEPT {
            made.pop_front();
        }
        cell
    }

    /// Daily puzzles kept or being made.
    pub fn kept(&self) -> usize {
        self.made
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// The day `now` falls on, UTC, and the time left until it ends (the next midnight, UTC),
/// in whole seconds rounded down, so that no cache keeps a day's answer past its end.
pub fn today(now: SystemTime) -> (Date, Duration) {
    let now = OffsetDateTime::from(now);
    let date = now.date();
    let left = date.next_day().map_or(time::Duration::ZERO, |next| {
        next.midnight().assume_utc() - now
    });
    let seconds = u64::try_from(left.whole_seconds()).unwrap_or(0);
    (date, Duration::from_secs(seconds))
}

/// The answer of JSON `body`: cacheable for `max_age` (by shared caches too, unless
/// `private`), with its strong entity tag, or 304 without the body when the `request`'s
/// `If-None-Match` names that tag. Both carry the tag and `Cache-Control` (RFC 9110, 15.4.5).
pub fn cached_json(
    body: Vec<u8>,
    max_age: Duration,
    private: bool,
    request: &HeaderMap,
) -> Response {
    let tag = entity_tag(&body);
    let mut response = if not_modified(request, &tag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = body.into_response();
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    };
    let scope = if private { "private" } else { "public" };
    let headers = response.headers_mut();
    // Quotes around hex digits, and words and digits: always valid header values.
    if let Ok(tag) = HeaderValue::from_str(&tag) {
        headers.insert(ETAG, tag);
    }
    if let Ok(control) = HeaderValue::from_str(&format!("{scope}, max-age={}", max_age.as_secs())) {
        headers.insert(CACHE_CONTROL, control);
    }
    response
}

/// A strong entity tag for an answer's bytes: the first 128 bits of their SHA-256, in hex
/// and quotes. The bytes hold the date, the difficulty, the form and the puzzle, so the tag
/// changes whenever any of them does.
pub fn entity_tag(body: &[u8]) -> String {
    let hash = Sha256::digest(body);
    let quoted = hash[..16]
        .iter()
        .fold(String::from("\""), |mut text, byte| {
            // Writing to a String cannot fail.
            let _ = write!(text, "{byte:02x}");
            text
        });
    quoted + "\""
}

/// Whether the request's `If-None-Match` names `tag` (or is `*`). The comparison is weak
/// (RFC 9110, 13.1.2), so a `W/` prefix is ignored.
pub fn not_modified(request: &HeaderMap, tag: &str) -> bool {
    request
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .any(|candidate| {
            candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate) == tag
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use time::Month;

    fn date(year: i32, month: Month, day: u8) -> Date {
        Date::from_calendar_date(year, month, day).unwrap()
    }

    #[test]
    fn the_seed_depends_on_the_date_the_difficulty_and_the_secret() {
        let public = DailyPuzzles::new(None);
        let secret = DailySecret::from("correct horse battery staple".to_owned());
        let keyed = DailyPuzzles::new(Some(&secret));
        let day = date(2026, Month::December, 5);
        let seed = public.seed(day, Difficulty::Medium);
        assert_eq!(seed, DailyPuzzles::new(None).seed(day, Difficulty::Medium));
        assert_ne!(seed, public.seed(day, Difficulty::Hard));
        assert_ne!(
            seed,
            public.seed(date(2026, Month::December, 6), Difficulty::Medium)
        );
        assert_ne!(seed, keyed.seed(day, Difficulty::Medium));
    }

    #[test]
    fn the_seed_is_the_hmac_of_the_date_and_difficulty() {
        // RFC 4231's first test case checks the HMAC itself: key 0x0b * 20, "Hi There".
        let mut mac = Hmac::<Sha256>::new_from_slice(&[0x0b; 20]).unwrap();
        mac.update(b"Hi There");
        assert_eq!(
            mac.finalize().into_bytes()[..8],
            [0xb0, 0x34, 0x4c, 0x61, 0xd8, 0xdb, 0x38, 0x53]
        );
        let mut mac = Hmac::<Sha256>::new_from_slice(b"k").unwrap();
        mac.update(b"sudoku-service daily puzzle v1\n2026-12-05\nmedium");
        let tag = mac.finalize().into_bytes();
        let secret = DailySecret::from("k".to_owned());
        assert_eq!(
            DailyPuzzles::new(Some(&secret))
                .seed(date(2026, Month::December, 5), Difficulty::Medium),
            u64::from_be_bytes(tag[..8].try_into().unwrap())
        );
    }

    #[test]
    fn today_ends_at_the_next_midnight_utc() {
        // 2026-12-05T23:59:58.5Z: one whole second left (rounded down), on the 5th.
        let late = SystemTime::UNIX_EPOCH + Duration::from_millis(1_796_515_198_500);
        assert_eq!(
            today(late),
            (date(2026, Month::December, 5), Duration::from_secs(1))
        );
        // Midnight itself starts a new day of 86,400 seconds.
        let midnight = SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_515_200);
        assert_eq!(
            today(midnight),
            (date(2026, Month::December, 6), Duration::from_secs(86_400))
        );
    }

    #[test]
    fn if_none_match_names_the_tag_in_a_list_weakly_or_with_a_star() {
        let tag = entity_tag(b"body");
        assert_eq!(tag.len(), 34);
        assert_ne!(tag, entity_tag(b"body2"));
        for (header, matches) in [
            (tag.clone(), true),
            (format!("W/{tag}"), true),
            (format!("\"other\", {tag}"), true),
            ("*".to_owned(), true),
            ("\"other\"".to_owned(), false),
            (tag.trim_matches('"').to_owned(), false),
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(IF_NONE_MATCH, HeaderValue::from_str(&header).unwrap());
            assert_eq!(not_modified(&headers, &tag), matches, "{header}");
        }
        assert!(!not_modified(&HeaderMap::new(), &tag));
    }

    #[test]
    fn the_kept_puzzles_are_bounded() {
        let daily = DailyPuzzles::new(None);
        let first = date(2026, Month::January, 1);
        for offset in 0..(KEPT as i64 + 10) {
            daily.cell((first + time::Duration::days(offset), Difficulty::Easy));
        }
        assert_eq!(daily.kept(), KEPT);
        let again = daily.cell((
            first + time::Duration::days(KEPT as i64 + 9),
            Difficulty::Easy,
        ));
        assert!(Arc::ptr_eq(
            &again,
            &daily.cell((
                first + time::Duration::days(KEPT as i64 + 9),
                Difficulty::Easy
            ))
        ));
        assert_eq!(daily.kept(), KEPT);
    }
}
