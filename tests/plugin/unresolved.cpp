// A plugin that needs a symbol nothing defines: dlopen (RTLD_NOW) refuses it.
#include "platform/plugin.h"

extern "C" int hetvp_test_symbol_defined_nowhere();
extern "C" int call_it() { return hetvp_test_symbol_defined_nowhere(); }
HETVP_PLUGIN("unresolved")
