// hetvp tests — hetvp_lib links libsystemc, which references sc_main; gtest_main provides main().
// The ISS tests never start a SystemC simulation.
extern "C" int sc_main(int, char*[]) { return 0; }
