//! The two ways drivers export an opaque fd, as the test driver can be configured to
//! (`"fd_export"`, docs/test-driver.md), so that a suite runs in both:
//! - [`FdExport::Memfd`]: a new descriptor of the allocation's own memfd, one inode per payload
//!   (as lavapipe and SwiftShader do);
//! - [`FdExport::DeviceFile`]: every export a new open file description of one character device
//!   that all exports and the driver's own descriptors share, and a successful import closes the
//!   app's fd (as NVIDIA's driver does with `/dev/nvidiactl`).
//!
//! [`in_both_fd_export_modes!`](crate::in_both_fd_export_modes) turns scenarios
//! `fn name(mode: FdExport)` into the tests `name::memfd` and `name::device_file`.

const DESTROY_DEVICE: &str = "vkDestroyDevice";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FdExport {
    Memfd,
    DeviceFile,
}

impl FdExport {
    /// The test driver's configuration for the mode (JSON), `None` for its default (memfd).
    pub fn config(self) -> Option<&'static str> {
        match self {
            FdExport::Memfd => None,
            FdExport::DeviceFile => Some(r#"{"fd_export": "device_file"}"#),
        }
    }

    /// Where the layer reports an exported fd the app copied (`dup`) or moved and left open after
    /// freeing its memory: at `vkDestroyDevice` where the file names the payload (the layer looks
    /// for it then); nowhere where only the open file description does (the layer lets its
    /// descriptor of it go with the allocation, and at the free a copy may still be in a correct
    /// program's hands for a moment).
    pub fn copy_found_at(self) -> Option<&'static str> {
        match self {
            FdExport::Memfd => Some(DESTROY_DEVICE),
            FdExport::DeviceFile => None,
        }
    }

    /// Whether a successful import closes the app's fd.
    pub fn import_closes_fd(self) -> bool {
        self == FdExport::DeviceFile
    }
}

/// `in_both_fd_export_modes!(a, b)`: for each scenario `fn a(mode: FdExport)` of the test file,
/// the tests `a::memfd` and `a::device_file`.
#[macro_export]
macro_rules! in_both_fd_export_modes {
    ($($scenario:ident),* $(,)?) => {
        $(
            mod $scenario {
                #[test]
                fn memfd() {
                    super::$scenario($crate::fd_export::FdExport::Memfd)
                }
                #[test]
                fn device_file() {
                    super::$scenario($crate::fd_export::FdExport::DeviceFile)
                }
            }
        )*
    };
}
