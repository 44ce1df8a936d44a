# The GR register lists of GF100, GF117, GK104, GK110 and GK208 (nouveau's nvkm/engine/gr ctx<chip>.c
# and <chip>.c, Linux, MIT licence, plus the older chips' files whose arrays they reuse), read at
# configure time from Debian's linux-source-6.1 like nouveau's firmware (cmake/NouveauFirmware.cmake)
# and never committed: docs/falcon.md "GF100's register lists", "Kepler's register lists".
#
# hetvp_gf100_lists(OUT_CPP) extracts the files below from HETVP_LINUX_SOURCE_TARBALL into
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
  "gf100.c=bd71389e7fca78fbd61eedc52785aec96d3699894f83781ae3d1c9c9fbc51ed1"
  # GF117 (its packs reuse ctxgf100/104/108/110/119.c's and gf100/108/119.c's arrays)
  "ctxgf117.c=5f322f3fe05efa1fd52b91ec1e3bf8798a5b769314177958555e022880922c5e"
  "gf117.c=56784048dc08bb8915a3c54f933b8a0646a0238c2d69249b575be55e890799e2"
  "ctxgf104.c=742bd879c3860e131d40a38f2eec6a5f8ac7d0b51a841f537ea6fdc207de4075"
  "ctxgf108.c=8aea4223018dad21e660153a1ee255d46d1a6833a93fa0a65142239ab38f5f0a"
  "ctxgf110.c=e9dff1976bc272a3b7d2228f096338f0df48f18779d871160aadf3a8af798836"
  "ctxgf119.c=73ec66b71b69cf4f583650b0d13dd25b8e19099436b60cc0b3c3b6587184bfd6"
  "gf108.c=0ea0d4dcdb3614de5bdd13ff015cdb4558cc97b6afa26758a1ab841fbd3cb7c1"
  "gf119.c=1978162b69e5712342ac41ff7b9d9c9c3f0b910799e37d5382a58a4ca5849efc"
  # Kepler GK104, GK110, GK208
  "ctxgk104.c=8a2a09ccb960f8fe0e71ee11ffc7e0b982b99626ba2e471d162fad79e54c2014"
  "gk104.c=6254a66364209b17f61b4584748e35153e2483309447f1dab1b803048aa4e196"
  "ctxgk110.c=728d81a7129a3199ee9ff84666b50c7fbd08d5dcc2a87dbc480c9c38a6487be6"
  "gk110.c=be3aeb85dada0516802d842df72fc470714cf0b54bad923bed72de35067f788e"
  "ctxgk208.c=a4c46c372e1c1cd40e7a1f89d166e892533495e5f1c018c09478eb1e7f7513e1"
  "gk208.c=026c3bf5b00ce6f62495f27716a29c5b28768da75f0f7a1652155aa1b8d53c7b")
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
      list(JOIN want_files ", " names)
      message(STATUS "GR lists: extracting ${names} from ${HETVP_LINUX_SOURCE_TARBALL}")
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
      set(paths "")
      foreach(f ${want_files})
        list(APPEND paths ${dir}/${f})
      endforeach()
      execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/gf100_lists.py ${out_cpp}.tmp ${paths}
                      RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
      if(NOT rc EQUAL 0)
        string(STRIP "${err}" err)
        string(REGEX REPLACE "[\r\n]+" "; " err "${err}")
        set(sums "")
        foreach(f ${want_files})
          file(SHA256 ${dir}/${f} s)
          string(APPEND sums " ${f} SHA-256 ${s};")
        endforeach()
        set(reason "GF100 GR register lists not parsed (${sums}): ${err}")
      else()
        file(COPY_FILE ${out_cpp}.tmp ${out_cpp} ONLY_IF_DIFFERENT)
        file(REMOVE ${out_cpp}.tmp)
        list(JOIN want_files ", " names)
        message(STATUS "GR lists (GF100, GF117, GK104, GK110, GK208): ${dir} (${names}; SHA-256 pinned, ok) -> ${out_cpp}")
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
         "// Generated by cmake/Gf100Lists.cmake: the GR register lists are not available.\n"
         "#include \"models/gpu/gr/gf100_lists.h\"\n"
         "namespace hetvp::gpu::gr {\n"
         "detail::GrTable detail::gr_table() { return {nullptr, 0, \"${c}\"}; }\n"
         "}  // namespace hetvp::gpu::gr\n")
    file(COPY_FILE ${out_cpp}.tmp ${out_cpp} ONLY_IF_DIFFERENT)
    file(REMOVE ${out_cpp}.tmp)
  endif()
  set(HETVP_GF100_LISTS_REASON "${reason}" PARENT_SCOPE)
endfunction()
