// hetvp tests — libsystemc references sc_main; gtest_main provides main(). This stub satisfies the
// reference (a definition in the executable takes precedence over any in a shared library).
extern "C" int sc_main(int, char*[]) { return 0; }
