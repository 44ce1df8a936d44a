#include "platform/file_input.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hetvp {

namespace {

std::string size_text(uint64_t b) {
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}

[[noreturn]] void fail(const std::string& path, const InputKind& kind, const std::string& why) {
  throw InputFileError(path + ": " + why + " (" + kind.what + " expected)");
}

std::string type_name(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

void check_stat(const std::string& path, const InputKind& kind, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) fail(path, kind, "is " + type_name(st.st_mode) + ", not a regular file");
  if (static_cast<uint64_t>(st.st_size) > kind.max_bytes)
    fail(path, kind,
         "is " + size_text(static_cast<uint64_t>(st.st_size)) + ", more than the " + size_text(kind.max_bytes) +
             " limit");
}

}  // namespace

void check_input_file(const std::string& path, const InputKind& kind) {
  if (path.empty()) throw InputFileError(std::string("no file name given (") + kind.what + " expected)");
  struct stat st;
  if (stat(path.c_str(), &st) != 0) fail(path, kind, std::string("cannot open file: ") + std::strerror(errno));
  check_stat(path, kind, st);
}

std::vector<uint8_t> read_input_bytes(const std::string& path, const InputKind& kind) {
  check_input_file(path, kind);  // before open(): opening a FIFO would wait for a writer
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(path, kind, std::string("cannot open file: ") + std::strerror(errno));
  std::vector<uint8_t> bytes;
  try {
    struct stat st;
    if (fstat(fd, &st) != 0) fail(path, kind, std::string("cannot read: ") + std::strerror(errno));
    check_stat(path, kind, st);  // the file opened may not be the one checked (a rename between)
    // One byte more than the limit: a file that grew since stat() is refused, never read whole.
    bytes.resize(static_cast<size_t>(st.st_size) + 1);
    size_t got = 0;
    for (;;) {
      if (got == bytes.size()) {
        if (bytes.size() > kind.max_bytes) fail(path, kind, "grew beyond the " + size_text(kind.max_bytes) + " limit");
        bytes.resize(std::min<uint64_t>(bytes.size() * 2, kind.max_bytes + 1));
      }
      const ssize_t n = read(fd, bytes.data() + got, bytes.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(path, kind, std::string("cannot read: ") + std::strerror(errno));
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    bytes.resize(got);
  } catch (...) {
    close(fd);
    throw;
  }
  close(fd);
  return bytes;
}

std::string read_input_text(const std::string& path, const InputKind& kind) {
  const std::vector<uint8_t> b = read_input_bytes(path, kind);
  return std::string(b.begin(), b.end());
}

}  // namespace hetvp
