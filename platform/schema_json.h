// The parameter schemas (platform/params.h) of every registered component type and host program,
// as data for other tools:
//   types_json()          what `hetvp list TYPE` prints, as JSON (the Python module's list_types())
//   config_json_schema()  a JSON Schema (draft-07) of the whole configuration format: `hetvp schema`.
//                         YAML language servers use it to complete and check configs. Keys are
//                         exact (a misspelled key is rejected), enums are listed, numeric ranges of
//                         plain numbers are checked; values with units (4 KiB, 250 ns, 1.4 GHz) are
//                         checked for their form only (their range is hetvp's own validation).
#pragma once

#include <string>

namespace hetvp {

std::string types_json();
std::string config_json_schema();

}  // namespace hetvp
