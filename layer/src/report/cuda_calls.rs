//! How many calls of each CUDA external-resource entry point the interposer handed to the layer
//! in this process (`features::cuda_interop`), for the report's
//! `"process": {"cuda_calls": …}`: what shows that a program's CUDA side was seen.

use super::call_counts::CallCounts;

/// The counted entry points, in the order of [`NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CudaCommand {
    ImportExternalMemory,
    ExternalMemoryGetMappedBuffer,
    ExternalMemoryGetMappedMipmappedArray,
    DestroyExternalMemory,
    ImportExternalSemaphore,
    SignalExternalSemaphoresAsync,
    WaitExternalSemaphoresAsync,
    DestroyExternalSemaphore,
}

impl CudaCommand {
    /// The entry point's name.
    pub fn name(self) -> &'static str {
        NAMES[self as usize]
    }
}

const NAMES: [&str; 8] = exportcheck_cuda_abi::hooks::INTERCEPTED;

static CALLS: CallCounts<{ NAMES.len() }> = CallCounts::new(NAMES);

/// The interposer handed the layer a call of `command`.
#[inline(always)]
pub fn count(command: CudaCommand) {
    CALLS.count(command as usize);
}

/// The entry points called at least once, by name, with how often.
pub fn snapshot() -> serde_json::Map<String, serde_json::Value> {
    CALLS.snapshot()
}

/// In a child forked without exec: the parent's calls are the parent's.
pub fn forget_the_parents() {
    CALLS.forget_the_parents();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_interposers_in_order() {
        assert_eq!(
            CudaCommand::ImportExternalMemory.name(),
            "cuImportExternalMemory"
        );
        assert_eq!(
            CudaCommand::DestroyExternalSemaphore.name(),
            "cuDestroyExternalSemaphore"
        );
    }
}
