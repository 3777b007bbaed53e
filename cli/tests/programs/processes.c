/* A small Vulkan app of exportcheck's tests (cli/tests/processes.rs): several processes, forks
 * without exec, and crashes, on lavapipe through the real loader. `processes MODE`:
 *
 *   fork-worker    creates an instance, then forks a worker (no exec) that breaks
 *                  VUID-VkMemoryGetFdInfoKHR-handleType-00671 on its own device and exits;
 *                  the runner waits for it and exits 0.
 *   child-last     a launcher that never loads Vulkan starts a runner; the runner loads Vulkan,
 *                  forks a child that never touches Vulkan and exits after the runner; the
 *                  runner breaks 00671 after the fork and exits. The launcher exits when both
 *                  have ended.
 *   fd-child       exports an fd correctly (check_fd_leaks on), forks a child that never touches
 *                  Vulkan and exits while the fd is open; then closes the fd, frees, exits 0.
 *   gpu-process    a parent that never touches Vulkan forks a "GPU process", which creates an
 *                  instance and a device, finds nothing and ends with _exit(0), as browsers'
 *                  GPU processes do (no vkDestroyInstance, no exit handlers: no report); the
 *                  parent waits for it, prints "gpu-process PID" and exits 0.
 *   abort, segv    breaks 00671, then aborts / dereferences NULL.
 *   share SIZE     exports 65536 bytes as an opaque fd, forks and execs `processes import SIZE`
 *                  with one end of a socket pair as its fd 3, sends it the fd (SCM_RIGHTS),
 *                  waits for it, frees and exits 0. The importer imports the fd with
 *                  allocationSize SIZE, frees what it got and exits 0: with any other SIZE than
 *                  65536 it breaks VUID-VkMemoryAllocateInfo-allocationSize-01742, which only
 *                  cross-process checking can see.
 *   reuse-descriptors DATA
 *                  breaks 00671, then does what daemons and sandboxes do to descriptors:
 *                  closes every one from 3 up (close_range), opens its data file DATA and puts
 *                  it on every number from 3 to 1023 (dup2), and writes "data" into it; breaks
 *                  00671 again, exports an fd of exportable memory (closed at once) and frees
 *                  the memory, then checks that every one of those numbers still refers to its
 *                  data file (exit 4 if the layer closed one) and ends with _exit(0), as GPU
 *                  processes do: only the journal can tell the gate of its findings.
 *   fd-count       counts its open descriptors, then creates an instance and a device, exports
 *                  an fd of exportable memory (closed, the memory freed), breaks 00671,
 *                  destroys the device and the instance, and counts again: prints
 *                  "fds BEFORE AFTER" and exits 5 if they differ (the layer kept files open).
 *   escape-name    names memory "x<ESC>[2K<CR>exportcheck: PASSED<LF>" (VK_EXT_debug_utils)
 *                  and breaks 00671 on it; exits 0.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

struct app {
    VkInstance instance;
    VkDevice device;
    PFN_vkGetMemoryFdKHR get_fd;
};

static void check(VkResult r, const char *what) {
    if (r != VK_SUCCESS) {
        fprintf(stderr, "processes: %s failed: %d\n", what, r);
        exit(2);
    }
}

static VkInstance create_instance(void) {
    VkInstance instance;
    VkApplicationInfo info = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                              .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &info};
    check(vkCreateInstance(&ici, NULL, &instance), "vkCreateInstance");
    return instance;
}

static struct app start(void) {
    struct app a;
    a.instance = create_instance();
    uint32_t n = 1;
    VkPhysicalDevice physical;
    VkResult r = vkEnumeratePhysicalDevices(a.instance, &n, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) check(VK_ERROR_INITIALIZATION_FAILED, "no device");
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueCount = 1,
                                     .pQueuePriorities = &priority};
    const char *ext = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &queue,
                              .enabledExtensionCount = 1,
                              .ppEnabledExtensionNames = &ext};
    check(vkCreateDevice(physical, &dci, NULL, &a.device), "vkCreateDevice");
    a.get_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(a.device, "vkGetMemoryFdKHR");
    if (!a.get_fd) check(VK_ERROR_EXTENSION_NOT_PRESENT, "vkGetMemoryFdKHR");
    return a;
}

static void stop(struct app *a) {
    vkDestroyDevice(a->device, NULL);
    vkDestroyInstance(a->instance, NULL);
}

/* Memory, exportable as OPAQUE_FD or (export == 0) not exportable at all. */
static VkDeviceMemory allocate(struct app *a, int export) {
    VkExportMemoryAllocateInfo ex = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
                                     .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .pNext = export ? &ex : NULL,
                                .allocationSize = 65536,
                                .memoryTypeIndex = 0};
    VkDeviceMemory memory;
    check(vkAllocateMemory(a->device, &mai, NULL, &memory), "vkAllocateMemory");
    return memory;
}

static int export_fd(struct app *a, VkDeviceMemory memory) {
    VkMemoryGetFdInfoKHR gi = {.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
                               .memory = memory,
                               .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    a->get_fd(a->device, &gi, &fd);
    return fd;
}

/* Breaks VUID-VkMemoryGetFdInfoKHR-handleType-00671: OPAQUE_FD from memory allocated without
 * VkExportMemoryAllocateInfo. */
static void break_00671(struct app *a) {
    VkDeviceMemory memory = allocate(a, 0);
    int fd = export_fd(a, memory);
    if (fd >= 0) close(fd);
    vkFreeMemory(a->device, memory, NULL);
}

static int fork_worker(void) {
    VkInstance runner = create_instance();
    pid_t worker = fork();
    if (worker == 0) {
        struct app a = start();
        break_00671(&a);
        stop(&a);
        exit(0);
    }
    int status = 0;
    waitpid(worker, &status, 0);
    vkDestroyInstance(runner, NULL);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static int child_last(void) {
    int gone[2];
    if (pipe(gone) != 0) return 3;
    pid_t runner = fork();
    if (runner == 0) {
        close(gone[0]);
        struct app a = start();
        int started[2];
        if (pipe(started) != 0) exit(3);
        if (fork() == 0) {
            /* The child: never touches Vulkan; exits once the runner has gone. */
            close(started[1]);
            char c;
            while (read(started[0], &c, 1) > 0) {}
            usleep(100 * 1000);
            exit(0);
        }
        close(started[0]);
        break_00671(&a);
        stop(&a);
        exit(0); /* the child sees EOF on `started` when the runner has exited */
    }
    close(gone[1]);
    int status = 0;
    waitpid(runner, &status, 0);
    char c;
    while (read(gone[0], &c, 1) > 0) {} /* EOF: the runner's child has exited too */
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static int fd_child(void) {
    struct app a = start();
    VkDeviceMemory memory = allocate(&a, 1);
    int fd = export_fd(&a, memory);
    pid_t child = fork();
    if (child == 0) exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    if (fd >= 0) close(fd);
    vkFreeMemory(a.device, memory, NULL);
    stop(&a);
    return 0;
}

/* The app forks a daemon (through a child that exits at once) and ends; the daemon finds
   something after the app has ended. */
static int daemon_finds_later(void) {
    VkInstance app = create_instance();
    pid_t first = fork();
    if (first == 0) {
        if (fork() == 0) {
            usleep(300 * 1000);
            struct app a = start();
            break_00671(&a);
            stop(&a);
            exit(0);
        }
        exit(0);
    }
    int status = 0;
    waitpid(first, &status, 0);
    vkDestroyInstance(app, NULL);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static int gpu_process(void) {
    pid_t gpu = fork();
    if (gpu == 0) {
        start();
        _exit(0);
    }
    int status = 0;
    waitpid(gpu, &status, 0);
    printf("gpu-process %d\n", (int)gpu);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

/* Sends `fd` over `sock` with one byte of data. */
static void send_fd(int sock, int fd) {
    char byte = 'F';
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.buf,
                         .msg_controllen = sizeof control.buf};
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
    if (sendmsg(sock, &msg, 0) != 1) check(VK_ERROR_UNKNOWN, "sendmsg");
}

/* Receives an fd sent with send_fd. */
static int recv_fd(int sock) {
    char byte;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control.buf,
                         .msg_controllen = sizeof control.buf};
    if (recvmsg(sock, &msg, 0) != 1) check(VK_ERROR_UNKNOWN, "recvmsg");
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS) check(VK_ERROR_UNKNOWN, "no fd received");
    int fd;
    memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
    return fd;
}

static int share(const char *program, const char *size) {
    struct app a = start();
    VkDeviceMemory memory = allocate(&a, 1);
    int fd = export_fd(&a, memory);
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return 3;
    pid_t importer = fork();
    if (importer == 0) {
        if (dup2(pair[1], 3) != 3) _exit(3);
        execl(program, program, "import", size, (char *)NULL);
        _exit(3);
    }
    close(pair[1]);
    send_fd(pair[0], fd);
    close(fd);
    int status = 0;
    waitpid(importer, &status, 0);
    vkFreeMemory(a.device, memory, NULL);
    stop(&a);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static int import(const char *size) {
    struct app a = start();
    int fd = recv_fd(3);
    VkImportMemoryFdInfoKHR import = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
                                      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
                                      .fd = fd};
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .pNext = &import,
                                .allocationSize = strtoull(size, NULL, 10),
                                .memoryTypeIndex = 0};
    VkDeviceMemory memory;
    if (vkAllocateMemory(a.device, &mai, NULL, &memory) == VK_SUCCESS) {
        vkFreeMemory(a.device, memory, NULL);
    } else {
        close(fd);
    }
    stop(&a);
    return 0;
}

static int open_fds(void) {
    int n = 0;
    for (int fd = 0; fd < 4096; fd++) {
        if (fcntl(fd, F_GETFD) != -1) n++;
    }
    return n;
}

static int fd_count(void) {
    int before = open_fds();
    struct app a = start();
    VkDeviceMemory memory = allocate(&a, 1);
    int fd = export_fd(&a, memory);
    if (fd >= 0) close(fd);
    vkFreeMemory(a.device, memory, NULL);
    break_00671(&a);
    stop(&a);
    int after = open_fds();
    printf("fds %d %d\n", before, after);
    return before == after ? 0 : 5;
}

static int escape_name(void) {
    VkInstance instance;
    VkApplicationInfo info = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                              .apiVersion = VK_API_VERSION_1_1};
    const char *utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &info,
                                .enabledExtensionCount = 1,
                                .ppEnabledExtensionNames = &utils};
    check(vkCreateInstance(&ici, NULL, &instance), "vkCreateInstance");
    struct app a = start();
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(instance,
                                                                "vkSetDebugUtilsObjectNameEXT");
    if (!set_name) return 3;
    VkDeviceMemory memory = allocate(&a, 0);
    VkDebugUtilsObjectNameInfoEXT name = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                          .objectType = VK_OBJECT_TYPE_DEVICE_MEMORY,
                                          .objectHandle = (uint64_t)memory,
                                          .pObjectName = "x\x1b[2K\rexportcheck: PASSED\n"};
    set_name(a.device, &name);
    int fd = export_fd(&a, memory);
    if (fd >= 0) close(fd);
    vkFreeMemory(a.device, memory, NULL);
    stop(&a);
    vkDestroyInstance(instance, NULL);
    return 0;
}

static int reuse_descriptors(const char *data_path) {
    struct app a = start();
    break_00671(&a);
    syscall(SYS_close_range, 3u, ~0u, 0u);
    int data = open(data_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (data != 3) return 3;
    struct stat want;
    if (fstat(data, &want) != 0) return 3;
    for (int n = 4; n < 1024; n++) dup2(data, n);
    if (write(data, "data", 4) != 4) return 3;
    break_00671(&a);
    VkDeviceMemory memory = allocate(&a, 1);
    int fd = export_fd(&a, memory);
    if (fd >= 0) close(fd);
    vkFreeMemory(a.device, memory, NULL);
    for (int n = 3; n < 1024; n++) {
        struct stat got;
        if (n == fd) continue;
        if (fstat(n, &got) != 0 || got.st_ino != want.st_ino || got.st_dev != want.st_dev) {
            fprintf(stderr, "processes: descriptor %d is no longer the data file\n", n);
            _exit(4);
        }
    }
    _exit(0);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "fork-worker") == 0) return fork_worker();
    if (strcmp(mode, "child-last") == 0) return child_last();
    if (strcmp(mode, "fd-child") == 0) return fd_child();
    if (strcmp(mode, "daemon") == 0) return daemon_finds_later();
    if (strcmp(mode, "gpu-process") == 0) return gpu_process();
    if (strcmp(mode, "share") == 0 && argc > 2) return share(argv[0], argv[2]);
    if (strcmp(mode, "import") == 0 && argc > 2) return import(argv[2]);
    if (strcmp(mode, "reuse-descriptors") == 0 && argc > 2) return reuse_descriptors(argv[2]);
    if (strcmp(mode, "escape-name") == 0) return escape_name();
    if (strcmp(mode, "fd-count") == 0) return fd_count();
    if (strcmp(mode, "abort") == 0 || strcmp(mode, "segv") == 0) {
        struct app a = start();
        break_00671(&a);
        if (mode[0] == 'a') abort();
        volatile int *nothing = NULL;
        return *nothing;
    }
    fprintf(stderr, "processes: unknown mode '%s'\n", mode);
    return 2;
}
