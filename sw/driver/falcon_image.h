// hetvp — Falcon image files for the boot workload: the parser lives with the Falcon model
// (models/mcu/falcon/image_file.h), which also loads gpu0.microcontrollers.hub.image / gpc.image.
#pragma once

#include "models/mcu/falcon/image_file.h"

namespace hetvp::sw {
using mcu::falcon::FalconImageError;
using mcu::falcon::FalconImageFile;
using mcu::falcon::is_raw_falcon_image;
using mcu::falcon::parse_falcon_image;
using mcu::falcon::read_falcon_image;
using mcu::falcon::read_raw_falcon_image;
}  // namespace hetvp::sw
