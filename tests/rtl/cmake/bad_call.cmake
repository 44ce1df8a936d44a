# cmake -DCALL=<arguments, comma-separated> -P bad_call.cmake: calls hetvp_add_rtl_block with
# them in script mode; its argument checks run before anything is Verilated (tests/rtl).
# -DINSTALLED=ON: as find_package(hetvp) includes it for a project outside hetvp's tree.
set(HETVP_RTL_INSTALLED ${INSTALLED})
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/HetvpRtl.cmake)
string(REPLACE "," ";" _args "${CALL}")
hetvp_add_rtl_block(${_args})
