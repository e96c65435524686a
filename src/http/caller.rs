//! Who a request comes from, as the rate limits count callers: the address of the peer, or,
//! when the peer is a proxy we trust, the address that proxy says it forwarded for, in the
//! one header the operator named; IPv6 addresses grouped by their /64, the block one
//! subscriber usually holds.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::http::HeaderMap;
use axum::http::header::FORWARDED;
use ipnet::IpNet;

use crate::config::ForwardedHeader;

/// `X-Forwarded-For`: the de facto header, older than `Forwarded` and still the common one.
const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// The caller of every request whose forwarded client cannot be read (`unknown`, an
/// obfuscated name, garbage): one bucket of their own, never the proxy's nor one of the
/// client's choosing. No peer has this address.
pub const UNIDENTIFIED: IpAddr = IpAddr::V6(Ipv6Addr::UNSPECIFIED);

/// The proxy ranges whose forwarding header is believed, and which header that is. No
/// ranges by default: a header any caller can write cannot decide whose quota a request
/// spends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedProxies {
    ranges: Vec<IpNet>,
    header: ForwardedHeader,
}

impl Default for TrustedProxies {
    fn default() -> Self {
        TrustedProxies::new(Vec::new(), ForwardedHeader::XForwardedFor)
    }
}

impl TrustedProxies {
    /// These ranges, naming their clients in `header`.
    pub fn new(ranges: Vec<IpNet>, header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies { ranges, header }
    }

    /// True when `ip` lies in one of the ranges.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.ranges.iter().any(|range| range.contains(&ip))
    }

    /// The caller a request from `peer` with `headers` is counted as, grouped (see
    /// [`group`]).
    ///
    /// A peer outside the trusted ranges is the caller. A trusted one forwarded the request:
    /// the hops its header lists (`X-Forwarded-For`, or `Forwarded`'s `for=`, whichever the
    /// operator named) are read from the nearest back, and the first one that is not a
    /// trusted proxy is the caller: the "rightmost untrusted address" rule of MDN's
    /// `X-Forwarded-For` page. A hop that cannot be read before that one makes the caller
    /// [`UNIDENTIFIED`]. Without the header, the proxy is the caller.
    pub fn caller_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut caller = peer.to_canonical();
        if !self.contains(caller) {
            return group(caller);
        }
        for hop in forwarded_hops(headers, self.header).into_iter().rev() {
            let Some(ip) = hop else {
                return UNIDENTIFIED;
            };
            caller = ip.to_canonical();
            if !self.contains(caller) {
                break;
            }
        }
        group(caller)
    }
}

/// The address that stands for every caller in its block: an IPv4 address (also one
/// written as IPv4-mapped IPv6) as it is, an IPv6 address cut to its /64, since one
/// subscriber is given a whole /64 and can use any address in it.
pub fn group(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !u128::from(u64::MAX);
            IpAddr::V6(Ipv6Addr::from(prefix))
        }
    }
}

/// The forwarded-for hops of a request, farthest first; `None` for a hop that names no
/// address.
fn forwarded_hops(headers: &HeaderMap, header: ForwardedHeader) -> Vec<Option<IpAddr>> {
    if header == ForwardedHeader::Forwarded {
        // RFC 7239: `Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"`.
        values(headers, FORWARDED.as_str())
            .flat_map(|value| value.split(','))
            .map(|element| {
                element
                    .split(';')
                    .filter_map(|pair| pair.split_once('='))
                    .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
                    .and_then(|(_, value)| parse_node(value.trim().trim_matches('"')))
            })
            .collect()
    } else {
        values(headers, X_FORWARDED_FOR)
            .flat_map(|value| value.split(','))
            .map(|hop| parse_node(hop.trim()))
            .collect()
    }
}

/// Every line of the header `name`, in order; lines that are not text read as one
/// unreadable hop.
fn values<'a>(headers: &'a HeaderMap, name: &str) -> impl Iterator<Item = &'a str> {
    headers
        .get_all(name)
        .into_iter()
        .map(|value| value.to_str().unwrap_or("?"))
}

/// An address as proxies write it: `192.0.2.1`, `192.0.2.1:8080`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`.
fn parse_node(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|addr| addr.ip()))
        .or_else(|| {
            text.strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
                .and_then(|inner| inner.parse::<Ipv6Addr>().ok())
                .map(IpAddr::V6)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn proxies(ranges: &[&str]) -> TrustedProxies {
        proxies_naming(ranges, ForwardedHeader::XForwardedFor)
    }

    fn proxies_naming(ranges: &[&str], header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies::new(ranges.iter().map(|r| r.parse().unwrap()).collect(), header)
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_callers_are_grouped_by_their_64_and_ipv4_ones_stay_whole() {
        assert_eq!(group(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_eq!(
            group(ip("2001:db8:1:2:ffff::1")),
            group(ip("2001:db8:1:2::9"))
        );
        assert_ne!(group(ip("2001:db8:1:2::1")), group(ip("2001:db8:1:3::1")));
        assert_eq!(group(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(group(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
    }

    #[test]
    fn forwarding_headers_from_an_untrusted_peer_are_ignored() {
        let forged = headers(&[
            ("x-forwarded-for", "203.0.113.9"),
            ("forwarded", "for=1.2.3.4"),
        ]);
        assert_eq!(
            proxies(&[]).caller_of(ip("198.51.100.1"), &forged),
            ip("198.51.100.1")
        );
        assert_eq!(
            proxies(&["10.0.0.0/8"]).caller_of(ip("198.51.100.1"), &forged),
            ip("198.51.100.1")
        );
    }

    #[test]
    fn the_nearest_hop_that_is_not_a_trusted_proxy_is_the_caller() {
        let by_xff = proxies(&["10.0.0.0/8", "fd00::/8"]);
        let by_forwarded = proxies_naming(&["10.0.0.0/8", "fd00::/8"], ForwardedHeader::Forwarded);
        let cases = [
            // (case, the proxies, headers, caller)
            (
                "one proxy",
                &by_xff,
                headers(&[("x-forwarded-for", "203.0.113.9")]),
                "203.0.113.9",
            ),
            (
                "a forged hop left of the real one",
                &by_xff,
                headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.9, 10.1.1.1")]),
                "203.0.113.9",
            ),
            (
                "hops over two header lines",
                &by_xff,
                headers(&[
                    ("x-forwarded-for", "203.0.113.9"),
                    ("x-forwarded-for", "10.2.2.2"),
                ]),
                "203.0.113.9",
            ),
            (
                "a client's own Forwarded beside the proxy's X-Forwarded-For is not read",
                &by_xff,
                headers(&[
                    ("x-forwarded-for", "203.0.113.9"),
                    ("forwarded", "for=192.0.2.60"),
                ]),
                "203.0.113.9",
            ),
            (
                "nor a client's X-Forwarded-For beside the proxy's Forwarded",
                &by_forwarded,
                headers(&[
                    ("x-forwarded-for", "1.1.1.1"),
                    ("forwarded", "for=192.0.2.60;proto=http;by=10.0.0.1"),
                ]),
                "192.0.2.60",
            ),
            (
                "Forwarded with a quoted IPv6 and port, grouped",
                &by_forwarded,
                headers(&[("forwarded", "for=\"[2001:db8:cafe::17]:4711\"")]),
                "2001:db8:cafe::",
            ),
            (
                "Forwarded with a port on IPv4",
                &by_forwarded,
                headers(&[("forwarded", "For=\"192.0.2.43:47011\"")]),
                "192.0.2.43",
            ),
            (
                "an IPv6 chain through a trusted IPv6 proxy, grouped",
                &by_xff,
                headers(&[("x-forwarded-for", "2001:db8:1:2::5, fd00::7")]),
                "2001:db8:1:2::",
            ),
            (
                "an unreadable hop before the client: unidentified, not the proxy",
                &by_xff,
                headers(&[("x-forwarded-for", "203.0.113.9, unknown, 10.3.3.3")]),
                "::",
            ),
            (
                "an obfuscated Forwarded node likewise",
                &by_forwarded,
                headers(&[("forwarded", "for=_hidden, for=10.4.4.4")]),
                "::",
            ),
            (
                "Forwarded: for=unknown likewise",
                &by_forwarded,
                headers(&[("forwarded", "for=unknown")]),
                "::",
            ),
            (
                "garbage likewise",
                &by_xff,
                headers(&[("x-forwarded-for", "not an address")]),
                "::",
            ),
            (
                "a readable client before any garbage left of it",
                &by_xff,
                headers(&[("x-forwarded-for", "unknown, 203.0.113.9")]),
                "203.0.113.9",
            ),
            (
                "no header: the proxy itself",
                &by_xff,
                headers(&[]),
                "10.0.0.5",
            ),
            (
                "only the header not named: the proxy itself",
                &by_xff,
                headers(&[("forwarded", "for=192.0.2.60")]),
                "10.0.0.5",
            ),
        ];
        for (case, trusted, headers, caller) in cases {
            assert_eq!(
                trusted.caller_of(ip("10.0.0.5"), &headers),
                ip(caller),
                "{case}"
            );
        }
    }

    #[test]
    fn no_forwarded_client_can_pick_a_bucket() {
        // A new made-up Forwarded each time, behind a proxy that appends X-Forwarded-For:
        // every request is the same caller.
        let trusted = proxies(&["127.0.0.0/8"]);
        for fake in ["for=1.2.3.4", "for=5.6.7.8", "for=unknown", "for=_x"] {
            let mut map = HeaderMap::new();
            map.append("forwarded", HeaderValue::from_str(fake).unwrap());
            map.append("x-forwarded-for", HeaderValue::from_static("198.51.100.7"));
            assert_eq!(
                trusted.caller_of(ip("127.0.0.1"), &map),
                ip("198.51.100.7"),
                "{fake}"
            );
        }
    }

    #[test]
    fn an_ipv4_mapped_peer_matches_an_ipv4_range() {
        let trusted = proxies(&["127.0.0.0/8"]);
        let forwarded = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(
            trusted.caller_of(ip("::ffff:127.0.0.1"), &forwarded),
            ip("203.0.113.9")
        );
    }
}
