/* hetvp — TEST ONLY: the registers of tests/rtl/blocks/apb_timer.sv, shared by its reference model
 * (apb_timer_ref.cpp) and the host program that drives it (tests/rtl/test_rtl_targets.cpp). */
#pragma once

#define TIMER_LOAD 0x00u
#define TIMER_CTRL 0x04u
#define TIMER_CTRL_START 0x1u
#define TIMER_CTRL_ACK 0x2u
#define TIMER_COUNT 0x08u
#define TIMER_STATUS 0x0cu
#define TIMER_STATUS_RUNNING 0x1u
#define TIMER_STATUS_EXPIRED 0x2u
#define TIMER_ID 0x10u
#define TIMER_ID_VALUE 0x54494d52u /* 'TIMR' */
