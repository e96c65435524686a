//! Optional API keys: read from a file, kept only as SHA-256 hashes, compared in constant
//! time, and swapped whole when the file is read again (on SIGHUP).
//!
//! The file has one key per line, `LABEL KEY` or `LABEL sha256:HEX` (the hash of the key,
//! so that the file need not hold keys in clear); `#` starts a comment, blank lines are
//! skipped. Labels name who holds a key: they may appear in logs and are the rate limit's
//! client, keys never appear anywhere.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arc_swap::ArcSwap;
use axum::http::{HeaderMap, header};
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};

/// The other header a key may come in, for clients that cannot set `Authorization`.
pub const X_API_KEY: &str = "x-api-key";

/// Fewest characters a key may have: 16 random base64 characters are 96 bits.
pub const MIN_KEY_LENGTH: usize = 16;

/// Most characters a label may have.
const MAX_LABEL_LENGTH: usize = 64;

/// What is wrong with a keys file; never quotes a key.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// The file cannot be read.
    #[error("cannot read the API keys file {path}: {source}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is malformed.
    #[error("API keys file {path}, line {line}: {message}")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based.
        line: usize,
        /// What is wrong, without the key.
        message: String,
    },
    /// The file holds no key; a file cut short while it was written looks like this, and
    /// would lock every client out.
    #[error("the API keys file {0} holds no key")]
    Empty(PathBuf),
}

/// One key as held: who holds it, and the hash of the key.
#[derive(Debug, Clone)]
struct Entry {
    label: Arc<str>,
    hash: [u8; 32],
}

/// The keys the API takes; none when keys are off.
#[derive(Debug)]
pub struct ApiKeys {
    path: Option<PathBuf>,
    entries: ArcSwap<Vec<Entry>>,
}

impl ApiKeys {
    /// No keys: every request is let in.
    pub fn off() -> ApiKeys {
        ApiKeys {
            path: None,
            entries: ArcSwap::from_pointee(Vec::new()),
        }
    }

    /// The keys of the file at `path`.
    ///
    /// # Errors
    /// [`KeyFileError`] when the file cannot be read, a line is malformed, a label or key
    /// appears twice, or there is no key.
    pub fn load(path: &Path) -> Result<ApiKeys, KeyFileError> {
        Ok(ApiKeys {
            entries: ArcSwap::from_pointee(read_entries(path)?),
            path: Some(path.to_owned()),
        })
    }

    /// True when requests need a key.
    pub fn is_on(&self) -> bool {
        self.path.is_some()
    }

    /// How many keys are held.
    pub fn len(&self) -> usize {
        self.entries.load().len()
    }

    /// True when no key is held (keys are off).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads the file again and takes its keys at once; requests already past the check
    /// keep going, connections stay open. A file that cannot be taken changes nothing.
    ///
    /// # Errors
    /// [`KeyFileError`] as [`ApiKeys::load`]; the keys held before stay.
    pub fn reload(&self) -> Result<usize, KeyFileError> {
        let Some(path) = &self.path else {
            return Ok(0);
        };
        let entries = read_entries(path)?;
        let count = entries.len();
        self.entries.store(Arc::new(entries));
        Ok(count)
    }

    /// The label of `key`, if it is one of ours. Its hash is compared with every held
    /// hash, each in constant time and without stopping at a match, so neither how much
    /// of a key is right nor which key it is shows in the time taken.
    pub fn label_of(&self, key: &[u8]) -> Option<Arc<str>> {
        let hash: [u8; 32] = Sha256::digest(key).into();
        let entries = self.entries.load();
        let mut found = 0u32;
        for (index, entry) in entries.iter().enumerate() {
            let position = u32::try_from(index + 1).unwrap_or(u32::MAX);
            found.conditional_assign(&position, entry.hash.ct_eq(&hash));
        }
        let index = usize::try_from(found).ok()?.checked_sub(1)?;
        entries.get(index).map(|entry| Arc::clone(&entry.label))
    }
}

/// The key a request presents, if any: `Authorization: Bearer KEY` (the scheme in any
/// case), else `X-API-Key: KEY`.
pub fn presented_key(headers: &HeaderMap) -> Option<&[u8]> {
    let bearer = headers.get(header::AUTHORIZATION).and_then(|value| {
        let value = value.as_bytes();
        let (scheme, rest) = value.split_at_checked(7)?;
        scheme
            .eq_ignore_ascii_case(b"bearer ")
            .then(|| rest.trim_ascii())
    });
    bearer
        .or_else(|| {
            headers
                .get(X_API_KEY)
                .map(|value| value.as_bytes().trim_ascii())
        })
        .filter(|key| !key.is_empty())
}

/// The SHA-256 of `key` in lowercase hex, as a keys file may hold it instead of the key.
pub fn hash_hex(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn read_entries(path: &Path) -> Result<Vec<Entry>, KeyFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| KeyFileError::Unreadable {
        path: path.to_owned(),
        source,
    })?;
    let entries = parse(&text).map_err(|(line, message)| KeyFileError::Line {
        path: path.to_owned(),
        line,
        message,
    })?;
    if entries.is_empty() {
        return Err(KeyFileError::Empty(path.to_owned()));
    }
    Ok(entries)
}

/// The entries of a keys file, or the 1-based line at fault and why.
fn parse(text: &str) -> Result<Vec<Entry>, (usize, String)> {
    let mut entries: Vec<Entry> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // A `#` after a key once cut it short, silently: comments go on lines of their own.
        if line.contains('#') {
            return Err((
                number,
                "`#` inside a line: a comment goes on a line of its own".into(),
            ));
        }
        let mut fields = line.split_whitespace();
        let (Some(label), Some(secret), None) = (fields.next(), fields.next(), fields.next())
        else {
            return Err((number, "expected `LABEL KEY` or `LABEL sha256:HEX`".into()));
        };
        check_label(label).map_err(|message| (number, message))?;
        let hash = entry_hash(secret).map_err(|message| (number, message))?;
        if entries.iter().any(|entry| &*entry.label == label) {
            return Err((number, format!("the label {label:?} is given twice")));
        }
        if entries.iter().any(|entry| entry.hash == hash) {
            return Err((number, "this key is given twice".into()));
        }
        entries.push(Entry {
            label: label.into(),
            hash,
        });
    }
    Ok(entries)
}

fn check_label(label: &str) -> Result<(), String> {
    let fits = label.len() <= MAX_LABEL_LENGTH
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if fits {
        Ok(())
    } else {
        Err(format!(
            "a label is 1 to {MAX_LABEL_LENGTH} letters, digits, '.', '_' or '-'"
        ))
    }
}

/// The hash a key field stands for: `sha256:` and 64 hex digits, or a key in clear, which
/// must be a bearer token (RFC 6750's b64token characters) of [`MIN_KEY_LENGTH`] or more.
fn entry_hash(secret: &str) -> Result<[u8; 32], String> {
    if let Some(hex) = secret.strip_prefix("sha256:") {
        return parse_hex(hex).ok_or_else(|| "sha256: must be followed by 64 hex digits".into());
    }
    let token_chars = secret.bytes().all(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
    });
    if secret.len() < MIN_KEY_LENGTH || !token_chars {
        return Err(format!(
            "a key is at least {MIN_KEY_LENGTH} of A-Z a-z 0-9 - . _ ~ + / ="
        ));
    }
    Ok(Sha256::digest(secret.as_bytes()).into())
}

fn parse_hex(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    let mut hash = [0u8; 32];
    for (byte, pair) in hash.iter_mut().zip(hex.as_bytes().chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    const KEY: &str = "k3y-for-the-unit-tests";

    fn keys(text: &str) -> ApiKeys {
        ApiKeys {
            path: Some(PathBuf::from("test")),
            entries: ArcSwap::from_pointee(parse(text).unwrap()),
        }
    }

    #[test]
    fn a_key_in_clear_and_a_hashed_one_are_both_known_by_their_labels() {
        let text = format!(
            "# two clients\n\n  # in clear:\nalpha {KEY}\nbeta sha256:{}\n",
            hash_hex("another-key-of-sixteen")
        );
        let keys = keys(&text);
        assert_eq!(keys.len(), 2);
        assert_eq!(keys.label_of(KEY.as_bytes()).as_deref(), Some("alpha"));
        assert_eq!(
            keys.label_of(b"another-key-of-sixteen").as_deref(),
            Some("beta")
        );
        assert_eq!(keys.label_of(b"k3y-for-the-unit-test"), None);
        assert_eq!(keys.label_of(b""), None);
    }

    #[test]
    fn malformed_lines_are_refused_by_number_without_quoting_the_key() {
        let cases = [
            ("a label alone", "alpha\n", 1),
            ("three fields", "alpha k3y-for-the-unit-tests extra\n", 1),
            ("a short key", "# ok\nalpha short-key\n", 2),
            (
                "a space in a label",
                "al\u{e9}pha k3y-for-the-unit-tests\n",
                1,
            ),
            ("a bad hash", "alpha sha256:abc\n", 1),
            (
                "a # inside a key",
                "  # ok\nalpha k3y-for-the-unit-tests#1234\n",
                2,
            ),
            (
                "a comment after a key",
                "alpha k3y-for-the-unit-tests # old\n",
                1,
            ),
            (
                "a label twice",
                "a k3y-for-the-unit-tests\na k3y-for-the-unit-test2\n",
                2,
            ),
            (
                "a key twice",
                "a k3y-for-the-unit-tests\nb k3y-for-the-unit-tests\n",
                2,
            ),
        ];
        for (case, text, line) in cases {
            let (at, message) = parse(text).expect_err(case);
            assert_eq!(at, line, "{case}: {message}");
            assert!(
                !message.contains("k3y-for"),
                "{case} quotes the key: {message}"
            );
        }
    }

    #[test]
    fn keys_come_as_bearer_or_x_api_key() {
        let mut headers = HeaderMap::new();
        assert_eq!(presented_key(&headers), None);
        headers.insert(X_API_KEY, HeaderValue::from_static("from-x-api-key"));
        assert_eq!(presented_key(&headers), Some(&b"from-x-api-key"[..]));
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bEaReR  tok"),
        );
        assert_eq!(presented_key(&headers), Some(&b"tok"[..]));
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic dXNlcg=="),
        );
        assert_eq!(
            presented_key(&headers),
            Some(&b"from-x-api-key"[..]),
            "another scheme is no key"
        );
    }
}
