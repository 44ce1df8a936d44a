// A plugin that registers a component type whose name is taken by a built-in one.
#include "models/memory/memory.h"
#include "platform/plugin.h"
#include "platform/registry.h"

HETVP_PLUGIN("duplicate")
HETVP_REGISTER_COMPONENT("memory", hetvp::Memory, "a second 'memory'");
