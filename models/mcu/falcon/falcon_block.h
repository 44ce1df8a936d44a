// hetvp — the "microcontrollers" GPU block when gpu0.microcontrollers.core is falcon: a HUB and one
// GPC context controller per GPC (models/mcu/falcon/ctxctl.h), the GPC broadcast window and the PGRAPH
// registers nouveau's HUB firmware touches during boot.
#pragma once

#include <memory>

#include "models/gpu/gpu_block.h"

namespace hetvp::mcu::falcon {

// Adds the Falcon keys to the block's YAML schema (poll_watchdog, strands, ...).
void add_falcon_schema(Schema& s);
std::unique_ptr<gpu::GpuBlock> make_falcon_block(gpu::GpuContext& ctx, const Params& p);

}  // namespace hetvp::mcu::falcon
