/* The microcontroller window's debug port (models/mcu/debug_port.h: the whole port, hetvp's own
 * design): the one register firmware reads itself, its core's executed cycles (low 32 bits, not
 * while asleep). C, for the firmware; the model's header takes the offset from here. */
#ifndef HETVP_MCU_DEBUG_PORT_H
#define HETVP_MCU_DEBUG_PORT_H

#define MCU_DBG_CYCLES_LO 0xF34u

#endif
