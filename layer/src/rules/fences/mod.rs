//! The rules of the fence structures that are not an export command's: what `vkCreateFence`'s
//! chain asks for sharing (`create_fence`). The export commands' rules are in `rules/export/`.

pub mod create_fence;
