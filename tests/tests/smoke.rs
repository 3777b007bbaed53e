use exportcheck_tests::app::OPAQUE_FD;
use exportcheck_tests::Instance;

#[test]
fn smoke() {
    let inst = Instance::new();
    let dev = inst.device(&[ash::khr::external_memory_fd::NAME]);
    let mem = dev.allocate(65536, Some(OPAQUE_FD));
    let (r, fd) = dev.get_fd(mem, OPAQUE_FD);
    println!("good: {r:?} {fd} {:?}", inst.messages());
    let (r, fd2) = dev.get_fd(mem, ash::vk::ExternalMemoryHandleTypeFlags::DMA_BUF_EXT);
    println!("bad: {r:?} {fd2} {:#?}", inst.messages());
    dev.free(mem);
    dev.free(mem);
    println!("double free: {:#?}", inst.messages());
}
