//! Many threads allocating, exporting and freeing on one device: no finding, no failure.

use ash::vk::{self, Handle};
use exportcheck_tests::ids::*;
use exportcheck_tests::Options;
use exportcheck_tests::{expect, fds, Instance, OPAQUE_FD};
use std::collections::HashSet;

const THREADS: usize = 8;
const ITERATIONS: usize = 200;
const SIZE: u64 = 4096;

#[test]
fn eight_threads_allocate_export_and_free_on_one_device() {
    let inst = Instance::new();
    let dev = inst.fd_device();
    let successes: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let dev = &dev;
                s.spawn(move || {
                    let mut ok = 0;
                    for i in 0..ITERATIONS {
                        let mut export =
                            vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
                        let info = vk::MemoryAllocateInfo::default()
                            .allocation_size(SIZE)
                            .memory_type_index(0)
                            .push_next(&mut export);
                        let memory = dev.allocate_with(&info).unwrap_or_else(|e| {
                            panic!("thread {t}, iteration {i}: vkAllocateMemory {e:?}")
                        });
                        let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
                        assert_eq!(r, vk::Result::SUCCESS, "thread {t}, iteration {i}");
                        fds::close(fd);
                        dev.free(memory);
                        ok += 1;
                    }
                    ok
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("worker")).sum()
    });
    assert_eq!(successes, THREADS * ITERATIONS);
    expect::silent_for(&inst, &[ALLOCATE, GET_FD, FREE]);
    drop(dev);
}

#[test]
fn findings_from_eight_threads_all_arrive_whole() {
    const BAD: usize = 50;
    // Every report wanted: no duplicate limit (the default is 10 per ID).
    let inst = Instance::with(Options {
        layer_settings: &[("duplicate_message_limit", "0")],
        ..Options::default()
    });
    let dev = inst.fd_device();
    let memories: Vec<vk::DeviceMemory> = (0..THREADS).map(|_| dev.allocate(SIZE, None)).collect();
    std::thread::scope(|s| {
        for &memory in &memories {
            let dev = &dev;
            s.spawn(move || {
                for _ in 0..BAD {
                    // Allocated without VkExportMemoryAllocateInfo: 00671 alone, reported and
                    // passed down (lavapipe answers VK_SUCCESS with fd -1).
                    let (r, fd) = dev.get_fd(memory, OPAQUE_FD);
                    assert_eq!(r, vk::Result::SUCCESS);
                    fds::close_if_open(fd);
                }
            });
        }
    });
    let messages = inst.messages();
    assert_eq!(messages.len(), THREADS * BAD);
    let mut seen = HashSet::new();
    for m in &messages {
        assert_eq!(m.id, FD_HANDLE_TYPE_00671, "{m:#?}");
        assert_eq!(m.id_number, messages[0].id_number);
        // Each message names the memory of the thread that made the call, in full.
        let memory = memories
            .iter()
            .find(|mem| {
                m.text
                    .contains(&format!("VkDeviceMemory 0x{:x} ", mem.as_raw()))
            })
            .unwrap_or_else(|| panic!("no known memory in {}", m.text));
        assert!(
            m.text.ends_with(&format!("#{FD_HANDLE_TYPE_00671})")),
            "{}",
            m.text
        );
        seen.insert(*memory);
    }
    assert_eq!(seen.len(), THREADS, "every thread's findings arrived");
    expect::record(expect::Kind::Negative, &[FD_HANDLE_TYPE_00671], GET_FD);
    for memory in memories {
        dev.free(memory);
    }
    drop(dev);
}
