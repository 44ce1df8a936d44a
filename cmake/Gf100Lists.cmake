# GF100's GR register lists (nouveau's ctxgf100.c and gf100.c, Linux, MIT licence), read at configure
# time from Debian's linux-source-6.1 like nouveau's firmware (cmake/NouveauFirmware.cmake) and never
# committed: docs/falcon.md "GF100's register lists".
#
# hetvp_gf100_lists(OUT_CPP) extracts the two files from HETVP_LINUX_SOURCE_TARBALL into
# ${PROJECT_BINARY_DIR}/nouveau-gr, checks their pinned SHA-256 sums, and runs cmake/gf100_lists.py to
# write OUT_CPP, the table behind models/gpu/gr/gf100_lists.h. Without the tarball, with other bytes or
# when the parser fails, OUT_CPP holds the reason instead (a configure warning names the file and its
# SHA-256; the tests that need the lists GTEST_SKIP with the reason); with HETVP_REQUIRE_NOUVEAU=ON it
# is a configure error. Sets HETVP_GF100_LISTS_REASON ("" = ok).
set(HETVP_LINUX_SOURCE_TARBALL /usr/src/linux-source-6.1.tar.xz CACHE FILEPATH
    "Debian linux-source-6.1 tarball holding nouveau's graphics firmware")
# Pinned: the files as shipped in Debian bookworm's linux-source-6.1 (file=SHA-256).
set(HETVP_GF100_LIST_SOURCES
  "ctxgf100.c=2ba31e7b916c5a00d638784acc509900c0b4627aad5829ab77513ccdd687c2ef"
  "gf100.c=bd71389e7fca78fbd61eedc52785aec96d3699894f83781ae3d1c9c9fbc51ed1")
set(HETVP_GF100_LIST_DIR drivers/gpu/drm/nouveau/nvkm/engine/gr)

function(hetvp_gf100_lists out_cpp)
  # an edited parser re-runs the configure step (the table is regenerated then, not at build time)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/gf100_lists.py)
  set(dir ${PROJECT_BINARY_DIR}/nouveau-gr)
  get_filename_component(out_dir ${out_cpp} DIRECTORY)
  file(MAKE_DIRECTORY ${dir} ${out_dir})
  set(reason "")
  set(want_files "")
  set(patterns "")
  foreach(entry ${HETVP_GF100_LIST_SOURCES})
    string(REGEX REPLACE "=.*" "" f "${entry}")
    list(APPEND want_files ${f})
    list(APPEND patterns "*/${HETVP_GF100_LIST_DIR}/${f}")
  endforeach()
  # extract when a file is missing or differs (a stale build tree)
  set(need FALSE)
  foreach(entry ${HETVP_GF100_LIST_SOURCES})
    string(REGEX REPLACE "=.*" "" f "${entry}")
    string(REGEX REPLACE ".*=" "" sum "${entry}")
    if(EXISTS ${dir}/${f})
      file(SHA256 ${dir}/${f} got)
      if(NOT got STREQUAL sum)
        set(need TRUE)
      endif()
    else()
      set(need TRUE)
    endif()
  endforeach()
  if(need)
    if(NOT EXISTS ${HETVP_LINUX_SOURCE_TARBALL})
      set(reason "GF100 GR register lists not available: ${HETVP_LINUX_SOURCE_TARBALL} not found (install the Debian package linux-source-6.1, see .ci/install-deps)")
    else()
      message(STATUS "GF100 GR lists: extracting ${want_files} from ${HETVP_LINUX_SOURCE_TARBALL}")
      set(tmp ${dir}/extract)
      file(REMOVE_RECURSE ${tmp})
      file(MAKE_DIRECTORY ${tmp})
      execute_process(COMMAND tar -xJf ${HETVP_LINUX_SOURCE_TARBALL} --wildcards ${patterns}
                      WORKING_DIRECTORY ${tmp} RESULT_VARIABLE rc ERROR_VARIABLE err)
      foreach(f ${want_files})
        file(GLOB_RECURSE found ${tmp}/*/${HETVP_GF100_LIST_DIR}/${f})
        if(found)
          list(GET found 0 found)
          file(COPY_FILE ${found} ${dir}/${f})
        elseif(reason STREQUAL "")
          string(STRIP "${err}" err)
          string(REGEX REPLACE "[\r\n]+" "; " err "${err}")
          set(reason "GF100 GR register lists not available: could not extract ${HETVP_GF100_LIST_DIR}/${f} from ${HETVP_LINUX_SOURCE_TARBALL} (tar exit status ${rc}: ${err})")
        endif()
      endforeach()
      file(REMOVE_RECURSE ${tmp})
    endif()
  endif()
  if(reason STREQUAL "")
    foreach(entry ${HETVP_GF100_LIST_SOURCES})
      string(REGEX REPLACE "=.*" "" f "${entry}")
      string(REGEX REPLACE ".*=" "" sum "${entry}")
      file(SHA256 ${dir}/${f} got)
      if(NOT got STREQUAL sum AND reason STREQUAL "")
        set(reason "GF100 GR register lists not used: ${HETVP_GF100_LIST_DIR}/${f} has SHA-256 ${got}, hetvp pins ${sum} (from ${HETVP_LINUX_SOURCE_TARBALL}; another kernel version?)")
      endif()
    endforeach()
  endif()
  if(reason STREQUAL "")
    find_package(Python3 COMPONENTS Interpreter)
    if(NOT Python3_Interpreter_FOUND)
      set(reason "GF100 GR register lists not available: no python3 to run cmake/gf100_lists.py")
    else()
      execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/gf100_lists.py
                              ${dir}/ctxgf100.c ${dir}/gf100.c ${out_cpp}.tmp
                      RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
      if(NOT rc EQUAL 0)
        string(STRIP "${err}" err)
        string(REGEX REPLACE "[\r\n]+" "; " err "${err}")
        file(SHA256 ${dir}/ctxgf100.c s1)
        file(SHA256 ${dir}/gf100.c s2)
        set(reason "GF100 GR register lists not parsed (ctxgf100.c SHA-256 ${s1}, gf100.c SHA-256 ${s2}): ${err}")
      else()
        file(COPY_FILE ${out_cpp}.tmp ${out_cpp} ONLY_IF_DIFFERENT)
        file(REMOVE ${out_cpp}.tmp)
        message(STATUS "GF100 GR lists: ${dir} (ctxgf100.c, gf100.c; SHA-256 pinned, ok) -> ${out_cpp}")
      endif()
    endif()
  endif()
  if(NOT reason STREQUAL "")
    if(HETVP_REQUIRE_NOUVEAU)
      message(FATAL_ERROR "${reason}. HETVP_REQUIRE_NOUVEAU is ON (CI): the GF100 list tests must run, not skip.")
    endif()
    message(WARNING "${reason}. Everything else builds; the tests that need GF100's lists are skipped.")
    string(REPLACE "\\" "\\\\" c "${reason}")
    string(REPLACE "\"" "\\\"" c "${c}")
    file(WRITE ${out_cpp}.tmp
         "// Generated by cmake/Gf100Lists.cmake: GF100's lists are not available.\n"
         "#include \"models/gpu/gr/gf100_lists.h\"\n"
         "namespace hetvp::gpu::gr {\n"
         "detail::Gf100Table detail::gf100_table() { return {nullptr, 0, \"${c}\"}; }\n"
         "}  // namespace hetvp::gpu::gr\n")
    file(COPY_FILE ${out_cpp}.tmp ${out_cpp} ONLY_IF_DIFFERENT)
    file(REMOVE ${out_cpp}.tmp)
  endif()
  set(HETVP_GF100_LISTS_REASON "${reason}" PARENT_SCOPE)
endfunction()
