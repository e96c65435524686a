//! lz-string's `decompressFromBase64`, the form f-puzzles share links carry, with a bound on
//! what it may write.
//!
//! The algorithm is pieroxy's lz-string (MIT), written here from its description: an LZW
//! variant whose codes grow from 3 bits as the dictionary does, read least significant bit
//! first from six-bit base64 characters. Each dictionary entry is the previous entry plus
//! the first unit of the next, so a few kilobytes can spell megabytes: the output is
//! capped, and every entry is kept as a span of the output rather than as its own copy, so
//! that memory stays linear in what was written. The `lz-str` crate keeps a copy per entry
//! and takes no bound, hence this module.

use std::ops::Range;

/// Why a payload does not decompress.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LzError {
    /// A character outside base64's alphabet.
    #[error("character {found:?} at position {position} is not base64 (A-Z, a-z, 0-9, + and /)")]
    NotBase64 {
        /// 1-based, in characters.
        position: usize,
        /// The character found.
        found: char,
    },
    /// The codes do not make lz-string data (a code past the dictionary, no end mark).
    #[error("the data is not lz-string compressed text: {0}")]
    Corrupt(&'static str),
    /// The text would be longer than the bound.
    #[error("the text would be longer than {0} characters, more than any puzzle needs")]
    TooLong(usize),
    /// The units written are no UTF-16 text (a lone surrogate).
    #[error("the decompressed data is not UTF-16 text")]
    NotText,
}

/// The six-bit value of a base64 character; `=`, lz-string's padding, reads as zero bits.
fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        b'=' => Some(0),
        _ => None,
    }
}

/// The bits of the payload, six to a character, each character's highest first; past the
/// end it reads zeros, as lz-string does.
struct Bits {
    sextets: Vec<u8>,
    index: usize,
    mask: u8,
}

impl Bits {
    /// `count` bits (at most 32), the first read the least significant.
    fn read(&mut self, count: u32) -> u32 {
        let mut value = 0;
        for bit in 0..count {
            let sextet = self.sextets.get(self.index).copied().unwrap_or(0);
            if sextet & self.mask != 0 {
                value |= 1 << bit;
            }
            self.mask >>= 1;
            if self.mask == 0 {
                self.mask = 32;
                self.index += 1;
            }
        }
        value
    }

    /// Whether every character has been read: data without its end mark.
    fn is_exhausted(&self) -> bool {
        self.index >= self.sextets.len()
    }
}

/// The text of an lz-string `compressToBase64` payload, refused once it would pass
/// `max_units` UTF-16 code units.
///
/// # Errors
/// An [`LzError`] saying why the payload is no such text.
pub fn decompress_from_base64(payload: &str, max_units: usize) -> Result<String, LzError> {
    let sextets = payload
        .bytes()
        .enumerate()
        .map(|(i, c)| {
            sextet(c).ok_or_else(|| LzError::NotBase64 {
                position: payload[..i].chars().count() + 1,
                found: payload[i..].chars().next().unwrap_or_default(),
            })
        })
        .collect::<Result<Vec<u8>, LzError>>()?;
    if sextets.is_empty() {
        return Err(LzError::Corrupt("it is empty"));
    }
    let mut bits = Bits {
        sextets,
        index: 0,
        mask: 32,
    };
    let mut out: Vec<u16> = Vec::new();
    let room = |out: &Vec<u16>, more: usize| {
        if out.len() + more > max_units {
            Err(LzError::TooLong(max_units))
        } else {
            Ok(())
        }
    };
    let first = match bits.read(2) {
        0 => bits.read(8),
        1 => bits.read(16),
        2 => return Ok(String::new()),
        _ => return Err(LzError::Corrupt("it does not start with a character")),
    };
    room(&out, 1)?;
    out.push(first as u16);
    // Codes 0, 1 and 2 are the two literal widths and the end mark, never entries.
    let mut dictionary: Vec<Range<usize>> = vec![0..0, 0..0, 0..0, 0..1];
    let mut previous = 0..1;
    let mut code_bits = 3;
    let mut enlarge_in: u32 = 4;
    loop {
        if bits.is_exhausted() {
            return Err(LzError::Corrupt("it ends without its end mark"));
        }
        let start = out.len();
        match bits.read(code_bits) as usize {
            literal @ (0 | 1) => {
                let unit = bits.read(if literal == 0 { 8 } else { 16 });
                room(&out, 1)?;
                out.push(unit as u16);
                dictionary.push(start..start + 1);
                enlarge_in -= 1;
                if enlarge_in == 0 {
                    enlarge_in = 1 << code_bits;
                    code_bits += 1;
                }
            }
            2 => break,
            code if code < dictionary.len() => {
                let entry = dictionary[code].clone();
                room(&out, entry.len())?;
                out.extend_from_within(entry);
            }
            // The entry being defined: the previous one and its own first unit.
            code if code == dictionary.len() => {
                room(&out, previous.len() + 1)?;
                out.extend_from_within(previous.clone());
                out.push(out[previous.start]);
            }
            _ => return Err(LzError::Corrupt("a code refers past the dictionary")),
        }
        // The previous entry and this one's first unit lie side by side in the output.
        dictionary.push(previous.start..start + 1);
        previous = start..out.len();
        enlarge_in -= 1;
        if enlarge_in == 0 {
            enlarge_in = 1 << code_bits;
            code_bits += 1;
        }
    }
    String::from_utf16(&out).map_err(|_| LzError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs of text and its `compressToBase64` form made by the reference implementation
    /// (how: tests/data/fpuzzles/README.md).
    const VECTORS: &str = include_str!("../../../tests/data/fpuzzles/lz-string-vectors.json");

    #[test]
    fn the_reference_implementations_payloads_decompress_to_their_text() {
        let vectors: Vec<serde_json::Value> = serde_json::from_str(VECTORS).unwrap();
        assert!(vectors.len() >= 5);
        for vector in &vectors {
            let text = vector["text"].as_str().unwrap();
            let payload = vector["base64"].as_str().unwrap();
            assert_eq!(
                decompress_from_base64(payload, 1 << 20).as_deref(),
                Ok(text),
                "{payload}"
            );
        }
    }

    #[test]
    fn a_payload_that_expands_past_the_bound_is_refused_without_writing_it_out() {
        // Ten million "a"s, compressed to a few kilobytes.
        let bomb = include_str!("../../../tests/data/fpuzzles/ten-million-a.txt").trim();
        assert!(bomb.len() < 16_384);
        let started = std::time::Instant::now();
        assert_eq!(
            decompress_from_base64(bomb, 1 << 20),
            Err(LzError::TooLong(1 << 20))
        );
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
        let text = decompress_from_base64(bomb, 10_000_000).unwrap();
        assert!(text.len() == 10_000_000 && text.bytes().all(|b| b == b'a'));
    }

    #[test]
    fn broken_payloads_say_what_is_wrong() {
        assert_eq!(
            decompress_from_base64("N4Ig-x", 100),
            Err(LzError::NotBase64 {
                position: 5,
                found: '-'
            })
        );
        assert_eq!(
            decompress_from_base64("Né", 100),
            Err(LzError::NotBase64 {
                position: 2,
                found: 'é'
            })
        );
        assert!(matches!(
            decompress_from_base64("", 100),
            Err(LzError::Corrupt(_))
        ));
        // A valid start cut short: no end mark.
        assert!(matches!(
            decompress_from_base64("N4Ig", 100),
            Err(LzError::Corrupt(_))
        ));
        // Three-bit code 7 right after the first character: no such entry yet.
        assert!(matches!(
            decompress_from_base64("AQ//", 100),
            Err(LzError::Corrupt(_))
        ));
    }
}
