# hetvp_add_gpu_kernels(TARGET <name> SOURCES <k.cu...> ARCH <sm_20|sm_30|sm_35...>
#                       [OUTPUT_DIRECTORY <dir>] [OPTIONS <extra clang flags...>])
#
# Compiles CUDA-dialect device code to PTX at build time with clang (no NVIDIA toolkit), for the
# compute units of hetvp's GPU (docs/gpu_kernels.md). Each source k.cu gives <dir>/k.<arch>.ptx for
# every ARCH (default dir: the current binary dir); the custom target <name> builds them all and
# lists them in its property HETVP_PTX_FILES. A kernel file needs no #include: hetvp_cuda.h (the
# device header installed with hetvp: threadIdx, __syncthreads, atomics, shuffles, votes) is
# included first, as nvcc includes its runtime header. Run a module with the `gpu_run` workload.
#
# The flags, a deliberate choice:
#   -O3                   nvcc's default for device code. An empty loop is deleted at any -O level
#                         above 0: a kernel that must spin keeps a volatile counter or an asm volatile.
#   -ffp-contract=fast    a*b+c becomes fma.rn, as nvcc does by default (--fmad=true); a host
#                         reference that wants bit-equal floats contracts the same way (fmaf).
#   -nocudainc -nocudalib no CUDA headers and no libdevice: only hetvp_cuda.h's functions exist
#                         (a math call it lacks is an undefined function: the loader refuses it).
#   -Wno-unknown-cuda-version  clang 14 knows CUDA up to 11.5; no CUDA is installed anyway.
# clang: HETVP_CLANG (cache variable; default the first clang-14 or clang on PATH; Debian: apt-get install clang).
#
# Rebuilds: a .ptx depends on its .cu and on every header the .cu includes (clang writes a depfile,
# -MD -MF <out>.d, that add_custom_command's DEPFILE reads: Makefile and Ninja generators). Other
# generators only know the .cu and hetvp_cuda.h.
if(NOT HETVP_CUDA_INCLUDE_DIR)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/../sw/kernels/hetvp_cuda.h)  # the source tree
    set(HETVP_CUDA_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../sw/kernels)
  endif()
endif()
find_program(HETVP_CLANG NAMES clang-14 clang DOC "clang that compiles CUDA device code to PTX (hetvp_add_gpu_kernels)")

function(hetvp_add_gpu_kernels)
  cmake_parse_arguments(K "" "TARGET;OUTPUT_DIRECTORY" "SOURCES;ARCH;OPTIONS" ${ARGN})
  if(NOT K_TARGET OR NOT K_SOURCES OR NOT K_ARCH)
    message(FATAL_ERROR "hetvp_add_gpu_kernels: TARGET, SOURCES and ARCH are required")
  endif()
  if(NOT HETVP_CLANG)
    message(FATAL_ERROR "hetvp_add_gpu_kernels: no clang found (Debian: apt-get install clang; or set HETVP_CLANG)")
  endif()
  if(NOT EXISTS ${HETVP_CUDA_INCLUDE_DIR}/hetvp_cuda.h)
    message(FATAL_ERROR "hetvp_add_gpu_kernels: hetvp_cuda.h not found (HETVP_CUDA_INCLUDE_DIR='${HETVP_CUDA_INCLUDE_DIR}')")
  endif()
  foreach(arch IN LISTS K_ARCH)
    if(NOT arch MATCHES "^sm_(20|30|35)$")
      message(FATAL_ERROR "hetvp_add_gpu_kernels: ARCH ${arch}: hetvp's GPUs are sm_20 (Fermi), sm_30 or sm_35 (Kepler)")
    endif()
  endforeach()
  if(NOT K_OUTPUT_DIRECTORY)
    set(K_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(_outs)
  foreach(src IN LISTS K_SOURCES)
    get_filename_component(_abs ${src} ABSOLUTE)
    get_filename_component(_stem ${src} NAME_WE)
    foreach(arch IN LISTS K_ARCH)
      set(_out ${K_OUTPUT_DIRECTORY}/${_stem}.${arch}.ptx)
      set(_depfile_flags)
      set(_depfile_arg)
      if(CMAKE_GENERATOR MATCHES "Makefiles|Ninja")
        set(_depfile_flags -MD -MF ${_out}.d -MT ${_out})
        set(_depfile_arg DEPFILE ${_out}.d)
      endif()
      add_custom_command(
        OUTPUT ${_out}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${K_OUTPUT_DIRECTORY}
        COMMAND ${HETVP_CLANG} -x cuda --cuda-device-only --cuda-gpu-arch=${arch} -nocudainc -nocudalib
                -Wno-unknown-cuda-version -O3 -ffp-contract=fast -I${HETVP_CUDA_INCLUDE_DIR} -include hetvp_cuda.h
                ${K_OPTIONS} ${_depfile_flags} -S ${_abs} -o ${_out}
        DEPENDS ${_abs} ${HETVP_CUDA_INCLUDE_DIR}/hetvp_cuda.h
        ${_depfile_arg}
        COMMENT "PTX ${_stem}.${arch}.ptx"
        VERBATIM)
      list(APPEND _outs ${_out})
    endforeach()
  endforeach()
  add_custom_target(${K_TARGET} ALL DEPENDS ${_outs})
  set_target_properties(${K_TARGET} PROPERTIES HETVP_PTX_FILES "${_outs}")
endfunction()
