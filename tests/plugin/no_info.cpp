// A library without HETVP_PLUGIN: not a hetvp plugin.
extern "C" int not_a_plugin() { return 1; }
