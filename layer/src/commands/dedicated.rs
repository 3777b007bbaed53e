//! `VkMemoryDedicatedAllocateInfo` at `vkAllocateMemory`: the rules of `rules::dedicated`, with
//! the create flags of the buffer or image the layer tracks (`state::resources`).

use crate::boundary;
use crate::finding::Outcome;
use crate::pipeline::policy::{decide, Decision};
use crate::rules::dedicated::{self, Dedicated};
use crate::state::resources::ResourceQuery;
use crate::state::DeviceState;
use ash::vk;

/// Before the call goes down, when the chain has a `VkMemoryDedicatedAllocateInfo` naming
/// `image` or `buffer`: reported, and whether the call goes down.
#[inline(never)]
pub fn check(state: &DeviceState, (image, buffer): (u64, u64)) -> Decision {
    let tracked = |ty, handle| match handle {
        0 => None,
        _ => state.resources.get(ty, handle).map(|r| r.query),
    };
    let image_flags = match tracked(vk::ObjectType::IMAGE, image) {
        Some(ResourceQuery::Image(q)) => Some(q.flags),
        _ => None,
    };
    let buffer_flags = match tracked(vk::ObjectType::BUFFER, buffer) {
        Some(ResourceQuery::Buffer(q)) => Some(q.flags),
        _ => None,
    };
    let d = Dedicated {
        image,
        buffer,
        image_flags,
        buffer_flags,
    };
    let broken = dedicated::evaluate(&d);
    if broken.is_empty() {
        return Decision::CallDown;
    }
    let outcome = boundary::contain("vkAllocateMemory", || Outcome {
        findings: dedicated::describe(state.handle(), &d, broken),
        ..Outcome::default()
    });
    decide(state, "vkAllocateMemory", &outcome)
}
