//! The child process: one (driver, configuration, suite). The parent set the loader's environment;
//! the child loads the loader, measures, and prints its result as one JSON line on stdout after
//! [`RESULT_MARKER`].

use crate::model::{ChildResult, Config, Driver, Mode, Suite, RESULT_MARKER};
use crate::suite_context::Ctx;
use crate::{suite_calls, suite_memory};

/// Arguments of `exportcheck-bench child`.
#[derive(Debug, PartialEq)]
pub struct ChildArgs {
    pub driver: Driver,
    pub config: Config,
    pub suite: Suite,
    pub mode: Mode,
    pub round: usize,
    pub driver_library: String,
}

impl ChildArgs {
    /// The arguments as the parent passes them.
    pub fn to_args(&self) -> Vec<String> {
        [
            "child",
            "--driver",
            self.driver.name(),
            "--config",
            self.config.name(),
            "--suite",
            self.suite.name(),
            "--mode",
            self.mode.name(),
            "--round",
            &self.round.to_string(),
            "--driver-library",
            &self.driver_library,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    /// Parses what follows `child`.
    pub fn parse(args: &[String]) -> Result<ChildArgs, String> {
        let mut driver = None;
        let mut config = None;
        let mut suite = None;
        let mut mode = Mode::Quick;
        let mut round = 0;
        let mut driver_library = String::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            let bad = || format!("bad value {value:?} for {flag}");
            match flag.as_str() {
                "--driver" => driver = Some(Driver::parse(value).ok_or_else(bad)?),
                "--config" => config = Some(Config::parse(value).ok_or_else(bad)?),
                "--suite" => suite = Some(Suite::parse(value).ok_or_else(bad)?),
                "--mode" => mode = Mode::parse(value).ok_or_else(bad)?,
                "--round" => round = value.parse().map_err(|_| bad())?,
                "--driver-library" => driver_library = value.clone(),
                _ => return Err(format!("unknown child argument {flag}")),
            }
        }
        Ok(ChildArgs {
            driver: driver.ok_or("--driver is required")?,
            config: config.ok_or("--config is required")?,
            suite: suite.unwrap_or(Suite::Calls),
            mode,
            round,
            driver_library,
        })
    }
}

/// Runs the child; the result goes to stdout.
pub fn main(args: &[String]) -> Result<(), String> {
    let args = ChildArgs::parse(args)?;
    // SAFETY: loads the system's Vulkan loader (libvulkan.so.1); the parent set its environment.
    let entry =
        unsafe { ash::Entry::load() }.map_err(|e| format!("loading libvulkan.so.1: {e}"))?;
    let ctx = Ctx {
        entry,
        driver: args.driver,
        config: args.config,
        mode: args.mode,
        driver_library: args.driver_library,
    };
    let mut result = ChildResult {
        driver: args.driver,
        config: args.config,
        suite: args.suite,
        mode: args.mode,
        round: args.round,
        calls: Default::default(),
        procs: Default::default(),
        throughput: Vec::new(),
        scale: Vec::new(),
        skipped: Default::default(),
        layer_log_lines: 0,
        wall_seconds: 0.0,
    };
    match args.suite {
        Suite::Calls => suite_calls::run(&ctx, &mut result)?,
        Suite::Memory => suite_memory::run(&ctx, &mut result)?,
    }
    let json = serde_json::to_string(&result).map_err(|e| e.to_string())?;
    println!("{RESULT_MARKER}{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_arguments_round_trip() {
        let a = ChildArgs {
            driver: Driver::Lavapipe,
            config: Config::Khronos,
            suite: Suite::Memory,
            mode: Mode::Full,
            round: 2,
            driver_library: "libvulkan_lvp.so".into(),
        };
        let args = a.to_args();
        assert_eq!(args[0], "child");
        assert_eq!(ChildArgs::parse(&args[1..]).unwrap(), a);
        assert!(ChildArgs::parse(&["--driver".into()]).is_err());
        assert!(ChildArgs::parse(&["--driver".into(), "gpu".into()]).is_err());
    }
}
