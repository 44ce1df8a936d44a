// Linked into hetvp_lib only with -DHETVP_SANITIZE=ON (top CMakeLists.txt); docs/reliability.md.
//
// Debian's SystemC 2.3.4 announces its coroutine switches to AddressSanitizer
// (__sanitizer_start_switch_fiber), but it announces the switch back to sc_main's stack with an
// empty range, and does not announce the switch away from a thread that has ended. After a
// simulation ASan therefore believes the program runs on no stack at all, or on the stack of a
// SystemC thread that has ended and been freed. LeakSanitizer's exit check then scans that freed
// range and dies ("Tracer caught signal 11", intermittently, depending on whether the range is
// still mapped), and never scans the real main stack.
//
// At exit (this object is destroyed before the leak check, which ASan registered first), tell ASan
// again which stack the program is on: the main thread's own.
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

namespace {

struct MainStackForLeakCheck {
  ~MainStackForLeakCheck() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* base = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
    __sanitizer_start_switch_fiber(nullptr, base, size);
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  }
} main_stack_for_leak_check;

}  // namespace
