//! A finding is data: what rule was broken, where, about which objects. Rendering is elsewhere.

use ash::vk;
pub use exportcheck_vuids::Severity;

/// An object a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectRef {
    pub ty: vk::ObjectType,
    pub handle: u64,
}

impl ObjectRef {
    pub fn device(handle: u64) -> Self {
        Self {
            ty: vk::ObjectType::DEVICE,
            handle,
        }
    }
    pub fn memory(handle: u64) -> Self {
        Self {
            ty: vk::ObjectType::DEVICE_MEMORY,
            handle,
        }
    }
}

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The VUID, or the layer's own `EXPORTCHECK-...` ID.
    pub id: &'static str,
    pub severity: Severity,
    /// The command, e.g. `vkGetMemoryFdKHR`.
    pub command: &'static str,
    /// The argument or member at fault, e.g. `pGetFdInfo->handleType`.
    pub field: String,
    pub message: String,
    pub objects: Vec<ObjectRef>,
}

impl Finding {
    /// A finding with the severity the catalog gives its ID.
    #[cold]
    pub fn new(
        id: &'static str,
        command: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        let severity = exportcheck_vuids::catalog()
            .get(id)
            .map_or(Severity::Error, |e| e.severity);
        Self {
            id,
            severity,
            command,
            field: field.into(),
            message: message.into(),
            objects: Vec::new(),
        }
    }

    pub fn with(mut self, object: ObjectRef) -> Self {
        self.objects.push(object);
        self
    }
}

/// What validating one call found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub findings: Vec<Finding>,
    /// An argument is a pointer or handle the layer knows is bad: the call must not go down.
    pub blocked: bool,
}

impl Outcome {
    #[cold]
    pub fn push(&mut self, finding: Finding) {
        self.findings.push(finding);
    }

    /// Records a finding about a bad pointer or handle, which keeps the call from the driver.
    #[cold]
    pub fn block(&mut self, finding: Finding) {
        self.findings.push(finding);
        self.blocked = true;
    }

    /// Whether any finding is an error (the call broke a rule; the driver's behaviour is
    /// undefined from there on).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Adds the findings of another of the call's checks: a call's findings are reported
    /// together, and it is skipped when any of its checks blocks it.
    pub fn absorb(&mut self, other: Outcome) {
        self.findings.extend(other.findings);
        self.blocked |= other.blocked;
    }

    pub fn ids(&self) -> Vec<&'static str> {
        self.findings.iter().map(|f| f.id).collect()
    }
}
