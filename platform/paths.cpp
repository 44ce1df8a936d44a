#include "platform/paths.h"

#include <cstdlib>
#include <dlfcn.h>
#include <sys/stat.h>

#ifndef HETVP_LIB_TO_DATA
#define HETVP_LIB_TO_DATA "../share/hetvp"
#endif

namespace hetvp {

namespace {
bool is_dir(const std::string& p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
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

}  // namespace hetvp
