// Plugins: shared libraries that add component types, host programs, GPU blocks or kernels to
// hetvp without rebuilding it. A plugin links hetvp::models (find_package(hetvp)), registers its
// entries exactly as the built-in ones do (HETVP_REGISTER_COMPONENT, HETVP_REGISTER_PROGRAM, ...)
// and declares itself once:
//     HETVP_PLUGIN("my_devices");
// `hetvp run|check|list --plugin lib.so` or the configuration's `plugins: [lib.so]` (paths relative
// to the YAML file) load it with dlopen before the configuration is validated. Its types then
// appear in `hetvp list`, are validated, and get stats and trace like any other. Errors (a file
// that cannot be loaded, an unresolved symbol, a library without HETVP_PLUGIN, one built against
// another hetvp version, a name registered twice) are ConfigErrors: exit status 2, naming the file.
#pragma once

#include <string>
#include <vector>

namespace hetvp {

// Bumped with every hetvp minor version: a plugin must be built against the same one.
#define HETVP_PLUGIN_ABI 3

struct PluginInfo {
  int abi;           // HETVP_PLUGIN_ABI the plugin was compiled with
  const char* name;  // for `hetvp list`
};

// Loads `path` (once per file; later calls with the same file do nothing). `where` says who asked
// ("--plugin", "configs/x.yaml:3:12") for the error message. Throws ConfigError.
void load_plugin(const std::string& path, const std::string& where);
// Files loaded so far (as resolved), in load order.
std::vector<std::string> loaded_plugins();

}  // namespace hetvp

#define HETVP_PLUGIN(NAME)                                                                           \
  extern "C" __attribute__((visibility("default"))) const ::hetvp::PluginInfo* hetvp_plugin_info() { \
    static const ::hetvp::PluginInfo info{HETVP_PLUGIN_ABI, NAME};                                   \
    return &info;                                                                                    \
  }
