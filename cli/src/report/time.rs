//! Ordering of the reports' RFC 3339 timestamps (`2026-11-21T05:00:00.123Z`).
//!
//! Text comparison is right only while every writer uses the same format; this parses the
//! timestamp into nanoseconds since the Unix epoch, so `...00.5Z`, `...00.123Z` and
//! `...00+01:00` order correctly. Unparseable stamps sort after every parseable one.

use std::cmp::Ordering;

/// Nanoseconds since 1970-01-01T00:00:00Z, or `None` if `s` is not an RFC 3339 date-time.
#[must_use]
pub fn parse_nanos(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = s.get(r)?;
        if part.bytes().all(|c| c.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    if second > 60 {
        return None;
    }
    let mut rest = &s[19..];
    let mut nanos: i128 = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        for (i, d) in frac.bytes().take(digits).enumerate() {
            if i < 9 {
                nanos += i128::from(d - b'0') * 10i128.pow(8 - i as u32);
            }
        }
        rest = &frac[digits..];
    }
    let offset_secs: i64 = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let h: i64 = rest[1..3].parse().ok()?;
            let m: i64 = rest[4..6].parse().ok()?;
            sign * (h * 3600 + m * 60)
        }
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_secs;
    Some(i128::from(secs) * 1_000_000_000 + nanos)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Orders two optional timestamps: earlier first; parseable before unparseable, which compare
/// as text; missing last.
#[must_use]
pub fn compare(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) => match (parse_nanos(a), parse_nanos(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => a.cmp(b),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_utc_with_and_without_fractions() {
        assert_eq!(parse_nanos("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_nanos("1970-01-01T00:00:01.5Z"), Some(1_500_000_000));
        assert_eq!(
            parse_nanos("2026-11-21T05:00:00.123Z"),
            Some(1_795_237_200_123_000_000)
        );
        assert_eq!(
            parse_nanos("2026-11-21T06:00:00.123+01:00"),
            parse_nanos("2026-11-21T05:00:00.123Z")
        );
        assert_eq!(
            parse_nanos("2000-02-29T00:00:00Z"),
            Some(951_782_400 * 1_000_000_000)
        );
    }

    #[test]
    fn rejects_what_is_not_a_timestamp() {
        for s in [
            "",
            "yesterday",
            "2026-11-21",
            "2026-11-21T05:00:00",
            "2026-13-01T00:00:00Z",
            "2026-11-21T05:00:00.Z",
            "2026-11-21T05:00:00+0100",
            "2026-11-21T5:00:00.000Z",
        ] {
            assert_eq!(parse_nanos(s), None, "{s}");
        }
    }

    #[test]
    fn compares_across_precisions() {
        let a = "2026-11-21T05:00:00.5Z";
        let b = "2026-11-21T05:00:00.123Z";
        assert_eq!(compare(Some(b), Some(a)), Ordering::Less);
        let whole = "2026-11-21T05:00:00Z";
        assert_eq!(compare(Some(whole), Some(b)), Ordering::Less);
        assert!(whole > b, "text order would get this wrong");
        assert_eq!(compare(Some(a), None), Ordering::Less);
        assert_eq!(compare(None, Some(a)), Ordering::Greater);
        assert_eq!(compare(Some("junk"), Some(a)), Ordering::Greater);
        assert_eq!(compare(Some("a"), Some("b")), Ordering::Less);
    }
}
