//! The payloads the driver returned for a `DMA_BUF` export that are certainly no dma_buf (a
//! memfd: what the project's test driver returns). An import of one as `DMA_BUF` breaks
//! `VUID-VkImportMemoryFdInfoKHR-handleType-00670` by the driver's doing, not the app's: the
//! layer does not report it to the app (`rules::import::import_fd_type`).

use crate::os::payload::PayloadId;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most payloads remembered (the oldest are forgotten first).
const LIMIT: usize = 256;

static PAYLOADS: Mutex<Vec<PayloadId>> = Mutex::new(Vec::new());
static ANY: AtomicBool = AtomicBool::new(false);

/// After a `DMA_BUF` export returned an fd of `payload`, which is no dma_buf.
pub fn remember(payload: PayloadId) {
    let mut payloads = PAYLOADS.lock();
    if payloads.contains(&payload) {
        return;
    }
    if payloads.len() >= LIMIT {
        payloads.remove(0);
    }
    payloads.push(payload);
    ANY.store(true, Ordering::Release);
}

/// How many payloads are remembered (introspection; at most 256, never forgotten otherwise).
pub fn entries() -> usize {
    PAYLOADS.lock().len()
}

/// Whether a `DMA_BUF` export of this process returned `payload`.
pub fn contains(payload: PayloadId) -> bool {
    ANY.load(Ordering::Acquire) && PAYLOADS.lock().contains(&payload)
}
