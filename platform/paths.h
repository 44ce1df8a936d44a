// Where hetvp finds its data at run time: firmware images and the shipped configs. Nothing of the
// build tree is compiled in; the folders are found relative to the loaded libhetvp.so, so the
// build tree and an installed tree (any prefix, moved or not) both work:
//   firmware: $HETVP_FIRMWARE_DIR, else <libdir>/firmware (build tree), else
//             <libdir>/<rel>/firmware (installed: <prefix>/share/hetvp/firmware)
//   data:     $HETVP_DATA_DIR, else <libdir> when it holds configs/ (build tree), else <libdir>/<rel>
#pragma once

#include <string>
#include <vector>

namespace hetvp {

// The folder holding libhetvp.so ("" if it cannot be determined).
std::string library_dir();
// The firmware folder (hub.elf, gpc.elf, ...).
std::string firmware_dir();
// The folder holding configs/ (the build tree's or <prefix>/share/hetvp).
std::string data_dir();
// A configuration given on the command line: `arg` itself when it names an existing file, else
// the shipped config of that name (data_dir()/configs/ARG or ARG.yaml: `hetvp run default`),
// else "".
std::string find_config(const std::string& arg);
// The names of the shipped configs (data_dir()/configs/*.yaml without .yaml), sorted.
std::vector<std::string> shipped_configs();

}  // namespace hetvp
