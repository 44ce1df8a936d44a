// hetvp — Falcon image files in nouveau's .fuc3.h array format (image_file.h).
#include "models/mcu/falcon/image_file.h"

#include <algorithm>
#include <cctype>

#include "platform/file_input.h"

namespace hetvp::mcu::falcon {

namespace {

// A small scanner over C text: skips whitespace and comments, counts lines.
struct Scanner {
  const std::string& t;
  const std::string& path;
  size_t i = 0;
  unsigned line = 1;

  [[noreturn]] void fail(const std::string& why) const {
    throw FalconImageError(path + ":" + std::to_string(line) + ": " + why);
  }
  void skip() {
    while (i < t.size()) {
      if (t[i] == '\n') {
        ++line;
        ++i;
      } else if (std::isspace(static_cast<unsigned char>(t[i]))) {
        ++i;
      } else if (t.compare(i, 2, "/*") == 0) {
        const size_t e = t.find("*/", i + 2);
        if (e == std::string::npos) fail("unterminated /* comment");
        for (size_t k = i; k < e; ++k) line += t[k] == '\n';
        i = e + 2;
      } else if (t.compare(i, 2, "//") == 0) {
        while (i < t.size() && t[i] != '\n') ++i;
      } else {
        return;
      }
    }
  }
  bool at_end() {
    skip();
    return i >= t.size();
  }
  std::string ident() {
    skip();
    const size_t b = i;
    while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_')) ++i;
    return t.substr(b, i - b);
  }
  bool eat(char c) {
    skip();
    if (i < t.size() && t[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  // The elements between '{' and '}' (the '{' already read), then '}' ';'.
  std::vector<uint32_t> elements(const std::string& name) {
    std::vector<uint32_t> v;
    for (;;) {
      if (eat('}')) break;
      skip();
      if (i >= t.size()) fail("array " + name + " has no closing '}'");
      const size_t b = i;
      while (i < t.size() && std::isalnum(static_cast<unsigned char>(t[i]))) ++i;
      const std::string num = t.substr(b, i - b);
      if (num.empty()) fail(std::string("unexpected '") + t[i] + "' in array " + name + " (32-bit numbers expected)");
      uint64_t value = 0;
      size_t used = 0;
      try {
        value = std::stoull(num, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != num.size()) fail("'" + num + "' in array " + name + " is not a number");
      if (value > 0xffffffffull) fail(num + " in array " + name + " does not fit 32 bits");
      v.push_back(static_cast<uint32_t>(value));
      if (eat('}')) break;
      if (!eat(',')) fail("',' or '}' expected after " + num + " in array " + name);
    }
    if (!eat(';')) fail("';' expected after array " + name);
    return v;
  }
};

bool ends_with(const std::string& s, const char* suffix) {
  const std::string x(suffix);
  return s.size() > x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

}  // namespace

FalconImageFile parse_falcon_image(const std::string& text, const std::string& path) {
  FalconImageFile f;
  f.path = path;
  Scanner s{text, path};
  bool have_code = false, have_data = false;
  while (!s.at_end()) {
    // [static] [const] uint32_t NAME [ ] = { ... } ;
    std::string w = s.ident();
    if (w.empty()) s.fail(std::string("unexpected '") + text[s.i] + "' (an array 'static uint32_t <name>_code[] = {...};' expected)");
    while (w == "static" || w == "const") w = s.ident();
    if (w != "uint32_t") s.fail("'" + w + "': only uint32_t arrays (<name>_code[], <name>_data[]) may appear");
    const unsigned line = s.line;
    const std::string name = s.ident();
    if (name.empty() || !s.eat('[') || !s.eat(']') || !s.eat('=') || !s.eat('{'))
      s.fail("'uint32_t <name>[] = {' expected");
    const bool code = ends_with(name, "_code"), data = ends_with(name, "_data");
    if (!code && !data) s.fail("array '" + name + "': its name must end in _code or _data");
    bool& have = code ? have_code : have_data;
    if (have) {
      s.line = line;
      s.fail(std::string("a second ") + (code ? "_code" : "_data") + " array ('" + name + "')");
    }
    have = true;
    (code ? f.code : f.data) = s.elements(name);
  }
  if (!have_code) s.fail("no <name>_code[] array in the file");
  if (!have_data) s.fail("no <name>_data[] array in the file");
  if (f.code.empty()) s.fail("the _code array is empty");
  return f;
}

bool is_raw_falcon_image(const std::string& spec) {
  return spec.compare(0, 5, "code=") == 0 || spec.compare(0, 5, "data=") == 0;
}

std::vector<uint32_t> raw_falcon_words(const std::vector<uint8_t>& bytes, const std::string& path, const char* what) {
  // Files that are obviously not Falcon code or data: their words would run (or be read) as such.
  if (bytes.size() >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F')
    throw FalconImageError(path + ": an ELF file, not a raw Falcon " + what +
                           " segment (raw segments are the bytes alone, e.g. `hetvp falcon-as --format bin`)");
  const size_t head = std::min<size_t>(bytes.size(), 256);
  bool text = head >= 16;
  for (size_t i = 0; i < head && text; ++i)
    text = (bytes[i] >= 0x20 && bytes[i] < 0x7f) || bytes[i] == '\n' || bytes[i] == '\t' || bytes[i] == '\r';
  if (text)
    throw FalconImageError(path + ": text, not a raw Falcon " + what +
                           " segment (a .fuc3.h/.fuc5.h header or falcon-as' header output is given without code=)");
  if (bytes.size() % 4)
    throw FalconImageError(path + ": " + std::to_string(bytes.size()) + " bytes, not a multiple of 4 (the " + what +
                           " segment is uploaded in 32-bit words)");
  std::vector<uint32_t> w(bytes.size() / 4);
  for (size_t i = 0; i < w.size(); ++i)  // little-endian, whatever the host's byte order
    w[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
           uint32_t(bytes[4 * i + 3]) << 24;
  return w;
}

FalconImageFile read_raw_falcon_image(const std::string& spec) {
  FalconImageFile f;
  std::string code_path, data_path;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(start, end - start);
    start = end + 1;
    const size_t eq = item.find('=');
    const std::string key = eq == std::string::npos ? item : item.substr(0, eq);
    if (eq == std::string::npos || (key != "code" && key != "data"))
      throw FalconImageError("raw Falcon image '" + spec + "': '" + item +
                             "' is not code=FILE or data=FILE (the raw form is code=CODE.bin[,data=DATA.bin])");
    std::string& slot = key == "code" ? code_path : data_path;
    if (!slot.empty()) throw FalconImageError("raw Falcon image '" + spec + "': " + key + "= given twice");
    slot = item.substr(eq + 1);
    if (slot.empty()) throw FalconImageError("raw Falcon image '" + spec + "': " + key + "= names no file");
  }
  if (code_path.empty())
    throw FalconImageError("raw Falcon image '" + spec + "': no code=FILE (the raw form is code=CODE.bin[,data=DATA.bin])");
  auto read = [](const std::string& path, const char* what) {
    try {
      return raw_falcon_words(read_input_bytes(path, input_kind::kFalconRawSegment), path, what);
    } catch (const InputFileError& e) {
      throw FalconImageError(e.what());
    }
  };
  f.path = code_path;
  f.code = read(code_path, "code");
  if (f.code.empty()) throw FalconImageError(code_path + ": empty code file (a program needs at least one word)");
  if (!data_path.empty()) f.data = read(data_path, "data");
  return f;
}

FalconImageFile read_falcon_image(const std::string& path) {
  if (is_raw_falcon_image(path)) return read_raw_falcon_image(path);
  std::string text;
  try {
    text = read_input_text(path, input_kind::kFalconImage);
  } catch (const InputFileError& e) {
    throw FalconImageError(e.what());
  }
  return parse_falcon_image(text, path);
}

}  // namespace hetvp::mcu::falcon
