//! The descriptors the layer holds to check imports against exports count against the app's own
//! open-file limit, so the layer holds at most a sixteenth of the soft limit. This binary lowers
//! its soft limit to 256 (budget 16), exports 40 allocations through the real loader over
//! lavapipe, and counts the layer's descriptors: numbered from three quarters of the soft limit
//! (192) up, close-on-exec. Its own binary: the limit is the whole process's.

use ash::vk;
use exportcheck_tests::ids::*;
use exportcheck_tests::{expect, fds, Instance, OPAQUE_FD, SIZE};

/// The open descriptors numbered `lowest` or more.
fn open_from(lowest: i32) -> Vec<i32> {
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&n| n >= lowest)
        .collect()
}

#[test]
fn the_layer_holds_no_more_descriptors_than_its_budget_and_still_checks_within_it() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write a structure we own.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = 256;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
    }
    let inst = Instance::exclusive();
    let dev = inst.fd_device();
    // Whatever else sits that high (the harness's, the loader's) was there before the exports.
    let before = open_from(192);
    let layers = || -> Vec<i32> {
        let mut now = open_from(192);
        now.retain(|n| !before.contains(n));
        now
    };
    let mut memories = Vec::new();
    for _ in 0..40 {
        let memory = dev.allocate(SIZE, Some(OPAQUE_FD));
        let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
        assert_eq!(r, vk::Result::SUCCESS);
        fds::close(fd);
        memories.push(memory);
    }
    expect::silent_for(&inst, &[ALLOCATE, GET_FD]);
    let held = layers();
    assert_eq!(held.len(), 16, "the layer's descriptors: {held:?}");

    // Within the budget the checks work: the first export is held, and an import of it with
    // another size is reported.
    let (r, fd) = dev.get_fd(memories[0], OPAQUE_FD);
    assert_eq!(r, vk::Result::SUCCESS);
    let mut import = vk::ImportMemoryFdInfoKHR::default()
        .handle_type(OPAQUE_FD)
        .fd(fd);
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(SIZE / 2)
        .memory_type_index(0)
        .push_next(&mut import);
    let result = dev.allocate_with(&info);
    expect::one(&inst, ALLOCATE, ALLOC_SIZE_01742);
    match result {
        Ok(memory) => dev.free(memory),
        Err(_) => fds::close_if_open(fd),
    }

    for memory in memories {
        dev.free(memory);
    }
    assert_eq!(layers(), Vec::<i32>::new(), "freed memory holds nothing");
}
