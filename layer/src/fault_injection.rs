//! Panics on purpose, in the test build only (feature `panic-injection`): the panic-injection
//! tests make the layer panic at each site and check that the app survives. Nothing here does
//! anything in a release.

/// Where a test build can make the layer panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// At the start of a command's checks.
    Check,
    /// At the start of delivering a finding.
    Report,
    /// After the call went down, once the layer recorded what it made (vkAllocateMemory,
    /// vkGetMemoryFdKHR).
    After,
}

/// Panics here when this is a test build (feature `panic-injection`) and
/// `EXPORTCHECK_INJECT_PANIC` asks for it; nothing otherwise.
#[inline(always)]
pub fn inject_panic(site: Site, command: &str) {
    #[cfg(feature = "panic-injection")]
    injection::maybe_panic(site, command);
    #[cfg(not(feature = "panic-injection"))]
    let _ = (site, command);
}

/// Whether a test build (feature `panic-injection`) is asked to fail creating the report
/// journal (`EXPORTCHECK_INJECT_JOURNAL_ERROR` set), as a directory out of inodes would. Always
/// false in a release.
#[inline(always)]
pub fn journal_fails() -> bool {
    #[cfg(feature = "panic-injection")]
    return std::env::var_os("EXPORTCHECK_INJECT_JOURNAL_ERROR").is_some();
    #[cfg(not(feature = "panic-injection"))]
    false
}

/// Whether this is a test build that injects panics (then every call takes the describe step,
/// even with nothing broken, so it reaches the injection point there). Always false in a release.
#[inline(always)]
pub fn injecting_panics() -> bool {
    #[cfg(feature = "panic-injection")]
    return injection::active();
    #[cfg(not(feature = "panic-injection"))]
    false
}

/// Panic injection for tests: `EXPORTCHECK_INJECT_PANIC=site:command[:count],...` where site is
/// `check`, `report` or `after`, command a Vulkan command name or `*`, and count how many times (default:
/// every time).
#[cfg(feature = "panic-injection")]
mod injection {
    use super::Site;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::LazyLock;

    struct Rule {
        site: Site,
        command: String,
        left: AtomicU64,
    }

    static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
        let spec = std::env::var("EXPORTCHECK_INJECT_PANIC").unwrap_or_default();
        spec.split(',').filter_map(parse).collect()
    });

    fn parse(rule: &str) -> Option<Rule> {
        let mut parts = rule.trim().split(':');
        let site = match parts.next()? {
            "check" => Site::Check,
            "report" => Site::Report,
            "after" => Site::After,
            _ => return None,
        };
        let command = parts.next()?.to_owned();
        let left = parts.next().map_or(Some(u64::MAX), |n| n.parse().ok())?;
        Some(Rule {
            site,
            command,
            left: AtomicU64::new(left),
        })
    }

    /// Whether `EXPORTCHECK_INJECT_PANIC` asks for any panic.
    pub fn active() -> bool {
        !RULES.is_empty()
    }

    pub fn maybe_panic(site: Site, command: &str) {
        let hit = RULES.iter().any(|r| {
            r.site == site
                && (r.command == "*" || r.command == command)
                && r.left
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_ok()
        });
        if hit {
            panic!("injected panic ({site:?} of {command})");
        }
    }
}
