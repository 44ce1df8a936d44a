// hetvp — the Falcon registers a debugger shows, by the index of the debug port's DBG_REG_INDEX
// (models/mcu/debug_port.h) and of FalconCore::debug_register: $r0..$r15, then $pc, $sp, $flags and
// the other special registers the core keeps (envytools docs/hw/falcon/proc.rst names them).
#pragma once

namespace hetvp::mcu::falcon {

inline constexpr const char* kDebugRegisterNames[] = {
    "$r0",  "$r1",  "$r2",  "$r3",  "$r4",  "$r5",   "$r6",    "$r7",    "$r8",       "$r9",       "$r10", "$r11", "$r12",
    "$r13", "$r14", "$r15", "$pc",  "$sp",  "$flags", "$iv0",  "$iv1",   "$tv",       "$xcbase",   "$xdbase", "$xtargets",
    "$tstatus"};
inline constexpr unsigned kDebugRegisterCount = sizeof kDebugRegisterNames / sizeof kDebugRegisterNames[0];

}  // namespace hetvp::mcu::falcon
