#include "platform/plugin.h"

#include <climits>
#include <cstdlib>
#include <dlfcn.h>

#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/registry.h"

namespace hetvp {

namespace {
std::vector<std::string>& loaded() {
  static std::vector<std::string> v;
  return v;
}
}  // namespace

void load_plugin(const std::string& path, const std::string& where) {
  const std::string who = where + ": plugin '" + path + "'";
  char buf[PATH_MAX];
  if (!realpath(path.c_str(), buf)) throw ConfigError(who + ": no such file");
  const std::string file = buf;
  for (auto& f : loaded())
    if (f == file) return;
  try {  // dlopen of a FIFO would block, of a directory says something unhelpful
    check_input_file(file, input_kind::kPlugin);
  } catch (const InputFileError& e) {
    throw ConfigError(who + ": " + e.what());
  }
  // RTLD_NOW: an unresolved symbol is reported here, not as a crash in the middle of a run.
  void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    const char* e = dlerror();
    throw ConfigError(who + ": cannot load: " + (e ? e : "unknown dlopen error"));
  }
  // From here on the library stays loaded: its registrations refer to its code.
  loaded().push_back(file);
  auto info_fn = reinterpret_cast<const PluginInfo* (*)()>(dlsym(h, "hetvp_plugin_info"));
  if (!info_fn)
    throw ConfigError(who +
                      ": not a hetvp plugin (no symbol hetvp_plugin_info; declare HETVP_PLUGIN(\"name\") "
                      "once in the library, platform/plugin.h)");
  const PluginInfo* info = info_fn();
  if (!info || info->abi != HETVP_PLUGIN_ABI)
    throw ConfigError(who + ": built against plugin ABI " + std::to_string(info ? info->abi : -1) +
                      ", this hetvp has ABI " + std::to_string(HETVP_PLUGIN_ABI) + ": rebuild it against this hetvp");
  // Names this plugin registered twice (its registrations ran inside dlopen and could not throw).
  std::vector<std::string> twice;
  auto& errors = registration_errors();
  for (auto it = errors.begin(); it != errors.end();)
    if (it->library == file) {
      twice.push_back(it->message);
      it = errors.erase(it);
    } else {
      ++it;
    }
  if (!twice.empty()) {
    std::string msg = who + ": ";
    for (size_t i = 0; i < twice.size(); ++i) msg += (i ? "; " : "") + twice[i];
    throw ConfigError(msg + " (rename it in the plugin)");
  }
}

std::vector<std::string> loaded_plugins() { return loaded(); }

std::vector<RegistrationError>& registration_errors() {
  static std::vector<RegistrationError> errors;
  return errors;
}

std::string library_of(const void* address) {
  Dl_info info;
  if (!dladdr(address, &info) || !info.dli_fname) return "";
  return info.dli_fname;
}

std::string plugin_origin(const std::string& library) {
  for (const auto& f : loaded())
    if (f == library) return f;
  return "";
}

void check_registrations() {
  for (const auto& e : registration_errors())
    if (plugin_origin(e.library).empty()) throw std::logic_error("hetvp: " + e.message);
}

}  // namespace hetvp
