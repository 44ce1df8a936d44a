# The example block (docs/rtl_blocks.md): included from rtl/CMakeLists.txt, so its objects go into
# hetvp_rtl (libhetvp_rtl.so). A user's block is the same one call.
hetvp_add_rtl_block(NAME crc32 TOP crc32_dma
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/crc32_dma.sv
  BUS axi4lite MASTER axi4 IRQS 1
  REFERENCE_CXX ${CMAKE_CURRENT_LIST_DIR}/crc32_ref.cpp)
