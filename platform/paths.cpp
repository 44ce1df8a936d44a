#include "platform/paths.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#ifndef HETVP_LIB_TO_DATA
#define HETVP_LIB_TO_DATA "../share/hetvp"
#endif

namespace hetvp {

namespace {
bool is_dir(const std::string& p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
std::string from_env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}
}  // namespace

std::string library_dir() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&library_dir), &info) || !info.dli_fname) return "";
  std::string f = info.dli_fname;
  auto slash = f.rfind('/');
  return slash == std::string::npos ? std::string(".") : f.substr(0, slash);
}

std::string firmware_dir() {
  std::string env = from_env("HETVP_FIRMWARE_DIR");
  if (!env.empty()) return env;
  const std::string lib = library_dir();
  if (is_dir(lib + "/firmware")) return lib + "/firmware";
  return lib + "/" HETVP_LIB_TO_DATA "/firmware";
}

std::string data_dir() {
  std::string env = from_env("HETVP_DATA_DIR");
  if (!env.empty()) return env;
  const std::string lib = library_dir();
  if (is_dir(lib + "/configs")) return lib;
  return lib + "/" HETVP_LIB_TO_DATA;
}

std::string find_config(const std::string& arg) {
  if (is_file(arg)) return arg;
  if (arg.empty() || arg.find('/') != std::string::npos) return "";  // a path: only as given
  const std::string dir = data_dir() + "/configs/";
  for (const std::string& f : {dir + arg, dir + arg + ".yaml"}) {
    if (!is_file(f)) continue;
    char* canonical = realpath(f.c_str(), nullptr);  // <prefix>/share/hetvp/..., not bin/../lib/../share
    const std::string path = canonical ? canonical : f;
    free(canonical);
    return path;
  }
  return "";
}

std::vector<std::string> shipped_configs() {
  std::vector<std::string> names;
  const std::string dir = data_dir() + "/configs";
  DIR* d = opendir(dir.c_str());
  if (!d) return names;
  while (const dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0 && is_file(dir + "/" + n))
      names.push_back(n.substr(0, n.size() - 5));
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace hetvp
