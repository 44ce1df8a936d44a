// A plugin built against another plugin ABI.
#include "platform/plugin.h"

extern "C" __attribute__((visibility("default"))) const hetvp::PluginInfo* hetvp_plugin_info() {
  static const hetvp::PluginInfo info{HETVP_PLUGIN_ABI + 1, "old"};
  return &info;
}
