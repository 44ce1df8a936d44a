// libsystemc references sc_main; test executables get main() from gtest_main. Tests that
// simulate define their own elaboration inside a test (ctest runs every test in its own process).
extern "C" int sc_main(int, char*[]) { return 0; }
