# hetvp_add_rtl_block(NAME <name> TOP <module> SOURCES <files.sv...> BUS axi4lite|apb [MASTER axi4]
#                     [IRQS <n>] [VERILATOR_ARGS <args...>] [REFERENCE_CXX <reference model .cpp...>]
#                     [REFERENCE <block name>] [TARGET <object library>] [WAVES vcd|fst]
#                     [RESET <pin> ACTIVE_HIGH|ACTIVE_LOW])
#
# Verilates the SystemVerilog block (C++ output with --trace, evaluated by the bridges in
# rtl/bridges) and registers the component type `rtl.<name>` that YAML instantiates; `hetvp list`
# shows it with its ports. The top module's pins follow the naming convention of
# docs/rtl_blocks.md (clk, rst_n, s_axil_* or s_apb_*, m_axi_* with MASTER axi4, irq[IRQS-1:0],
# optional busy). RESET names another reset pin with its polarity (e.g. RESET rst ACTIVE_HIGH): a
# build-time fact, as the pin is a member of the Verilated C++ model the glue names. WAVES picks the format of the block's full waveform (`waves:` in YAML; default
# vcd; fst: Verilator --trace-fst, zlib; a Verilated model has one format). REFERENCE_CXX adds the sources of the block's TLM reference model
# (HETVP_REGISTER_RTL_REFERENCE); REFERENCE names another block whose reference model this block
# uses (test-only variants). TARGET defaults to hetvp_rtl_obj, whose objects go into hetvp_rtl (libhetvp_rtl.so).
# Installed (find_package(hetvp) includes this file as lib/cmake/hetvp/HetvpRtl.cmake): TARGET is
# required (the user's MODULE library, a plugin), which gets hetvp::rtl; Verilator's runtime is not
# compiled into it (libhetvp_rtl.so carries it, built with the same Verilator: hetvpConfig.cmake checks).
# Verilator flags always given: -Wall (lint warnings fail the build), --x-assign unique,
# --x-initial unique, -O3.
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/rtl_block_glue.cpp.in)  # installed beside this file
  set(HETVP_RTL_GLUE_TEMPLATE ${CMAKE_CURRENT_LIST_DIR}/rtl_block_glue.cpp.in CACHE INTERNAL "")
else()
  set(HETVP_RTL_GLUE_TEMPLATE ${CMAKE_CURRENT_LIST_DIR}/../rtl/bridges/rtl_block_glue.cpp.in CACHE INTERNAL "")
endif()

# hetvp_verilate(TARGET <target> TOP <module> PREFIX <prefix> SOURCES <files.sv...>
#                [VERILATOR_ARGS <args...>] [FST])
#
# The Verilator call every RTL block of hetvp uses (hetvp_add_rtl_block's bus blocks, the range
# engine behind the stream bridge, test-only variants): C++ output with --trace into
# <binary dir>/<prefix>, flags -Wall (lint warnings fail the build), --x-assign unique,
# --x-initial unique, -O3.
function(hetvp_verilate)
  cmake_parse_arguments(V "FST" "TARGET;TOP;PREFIX" "SOURCES;VERILATOR_ARGS" ${ARGN})
  if(V_FST)
    set(_trace TRACE_FST)
  else()
    set(_trace TRACE)
  endif()
  verilate(${V_TARGET} ${_trace}
    SOURCES ${V_SOURCES}
    TOP_MODULE ${V_TOP}
    PREFIX ${V_PREFIX}
    DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${V_PREFIX}
    VERILATOR_ARGS -Wall --x-assign unique --x-initial unique -O3 ${V_VERILATOR_ARGS})
  if(HETVP_SANITIZE)
    # Verilator's trace buffer stores 64-bit values at 4-byte alignment (verilated_trace_imp.h,
    # fullQData): UBSan's alignment check would stop any run with waves of a block that has a
    # 64-bit signal. That is Verilator's own code (generated and runtime), not the block's.
    # The FST writer includes gtkwave's fstapi.c, which left-shifts a negative value
    # (fstapi.c:1663, a varint of a negative delta): UBSan's shift check stops any FST run there.
    # Also third-party code, so that check is off for that one file.
    get_target_property(_srcs ${V_TARGET} SOURCES)
    foreach(_s IN LISTS _srcs)
      if(_s MATCHES "verilated_fst_c\\.cpp$")
        set_source_files_properties(${_s} TARGET_DIRECTORY ${V_TARGET} PROPERTIES COMPILE_OPTIONS
                                    "-fno-sanitize=alignment;-fno-sanitize=shift")
      elseif(_s MATCHES "/${V_PREFIX}/|verilated")
        set_source_files_properties(${_s} TARGET_DIRECTORY ${V_TARGET} PROPERTIES COMPILE_OPTIONS -fno-sanitize=alignment)
      endif()
    endforeach()
  endif()
endfunction()

function(hetvp_add_rtl_block)
  cmake_parse_arguments(B "ACTIVE_HIGH;ACTIVE_LOW" "NAME;TOP;BUS;MASTER;IRQS;TARGET;REFERENCE;WAVES;RESET"
                        "SOURCES;VERILATOR_ARGS;REFERENCE_CXX" ${ARGN})
  if(B_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hetvp_add_rtl_block: unknown arguments: ${B_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT B_NAME MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "hetvp_add_rtl_block: NAME '${B_NAME}' must be lower-case letters, digits and _")
  endif()
  if(NOT B_TOP OR NOT B_SOURCES)
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): TOP and SOURCES are required")
  endif()
  if(NOT B_BUS STREQUAL "axi4lite" AND NOT B_BUS STREQUAL "apb")
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): BUS must be axi4lite or apb, not '${B_BUS}'")
  endif()
  if(B_MASTER AND NOT B_MASTER STREQUAL "axi4")
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): MASTER must be axi4, not '${B_MASTER}'")
  endif()
  if(NOT B_WAVES)
    set(B_WAVES vcd)
  endif()
  if(NOT B_WAVES STREQUAL "vcd" AND NOT B_WAVES STREQUAL "fst")
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): WAVES must be vcd or fst, not '${B_WAVES}'")
  endif()
  if(NOT B_IRQS)
    set(B_IRQS 0)
  endif()
  if(B_RESET)
    if(NOT B_RESET MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): RESET '${B_RESET}' is not a pin name")
    endif()
    if(B_ACTIVE_HIGH STREQUAL B_ACTIVE_LOW)
      message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): RESET ${B_RESET}: say ACTIVE_HIGH or ACTIVE_LOW")
    endif()
  elseif(B_ACTIVE_HIGH OR B_ACTIVE_LOW)
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): ACTIVE_HIGH/ACTIVE_LOW need RESET <pin> "
                        "(without it: rst_n, active low)")
  else()
    set(B_RESET rst_n)
  endif()
  if(NOT B_IRQS MATCHES "^[0-9]+$" OR B_IRQS GREATER 64)
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): IRQS must be 0..64")
  endif()
  if(NOT B_TARGET AND HETVP_RTL_INSTALLED)
    message(FATAL_ERROR "hetvp_add_rtl_block(${B_NAME}): TARGET is required outside hetvp's tree "
                        "(e.g. add_library(my_block MODULE) ... TARGET my_block: a plugin for `hetvp --plugin`)")
  endif()
  if(NOT B_TARGET)
    set(B_TARGET hetvp_rtl_obj)
  endif()
  if(NOT B_REFERENCE)
    set(B_REFERENCE ${B_NAME})
  endif()
  set(_prefix Vrtl_${B_NAME})
  set(_fst)
  set(HETVP_RTL_FST 0)
  if(B_WAVES STREQUAL "fst")
    set(_fst FST)
    set(HETVP_RTL_FST 1)
  endif()
  set(HETVP_RTL_WAVES ${B_WAVES})
  hetvp_verilate(TARGET ${B_TARGET} TOP ${B_TOP} PREFIX ${_prefix} SOURCES ${B_SOURCES}
    VERILATOR_ARGS ${B_VERILATOR_ARGS} ${_fst})
  set(HETVP_RTL_NAME ${B_NAME})
  set(HETVP_RTL_TOP ${B_TOP})
  set(HETVP_RTL_BUS ${B_BUS})
  set(HETVP_RTL_PREFIX ${_prefix})
  set(HETVP_RTL_IRQS ${B_IRQS})
  set(HETVP_RTL_REFERENCE ${B_REFERENCE})
  set(HETVP_RTL_RESET ${B_RESET})
  if(B_ACTIVE_HIGH)
    set(HETVP_RTL_RESET_HIGH true)
  else()
    set(HETVP_RTL_RESET_HIGH false)
  endif()
  if(B_BUS STREQUAL "apb")
    set(HETVP_RTL_APB 1)
  else()
    set(HETVP_RTL_APB 0)
  endif()
  if(B_MASTER)
    set(HETVP_RTL_MASTER 1)
  else()
    set(HETVP_RTL_MASTER 0)
  endif()
  if(HETVP_RTL_INSTALLED)
    # The plugin resolves Verilator's runtime in libhetvp_rtl.so: one copy of its globals per process.
    # (libhetvp_rtl.so has no FST writer: a WAVES fst block keeps verilated_fst_c.cpp.)
    get_target_property(_srcs ${B_TARGET} SOURCES)
    list(FILTER _srcs EXCLUDE REGEX "/include/verilated(_vcd_c|_threads)?\\.cpp$")
    set_property(TARGET ${B_TARGET} PROPERTY SOURCES ${_srcs})
    target_link_libraries(${B_TARGET} PRIVATE hetvp::rtl)
  endif()
  configure_file(${HETVP_RTL_GLUE_TEMPLATE} ${CMAKE_CURRENT_BINARY_DIR}/${_prefix}_glue.cpp @ONLY)
  target_sources(${B_TARGET} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/${_prefix}_glue.cpp ${B_REFERENCE_CXX})
  set_property(GLOBAL APPEND PROPERTY HETVP_RTL_BLOCKS ${B_NAME})
endfunction()
