# nouveau's GF100 graphics context-controller firmware (Linux, MIT licence, Red Hat), obtained at
# configure time from Debian's linux-source-6.1 package and never committed (docs/falcon.md).
#
# hetvp_nouveau_firmware(OUT_CPP) extracts only */gr/fuc/hubgf100.fuc3.h and */gr/fuc/gpcgf100.fuc3.h
# from /usr/src/linux-source-6.1.tar.xz (override: -DHETVP_LINUX_SOURCE_TARBALL=...) into
# ${PROJECT_BINARY_DIR}/nouveau-fw, checks their pinned SHA-256 sums, and writes a loader
# (OUT_CPP) that includes them and exposes the code/data arrays as hetvp::mcu::falcon::nouveau_gf100().
# Without the package, or with other bytes, the loader reports "not available" with the reason, and
# the tests that need the firmware skip with that reason. Sets HETVP_NOUVEAU_FW_REASON ("" = ok).
# -DHETVP_REQUIRE_NOUVEAU=ON (set by .ci/run, where install-deps installs the package): any of those
# reasons is a configure error instead, so a missing package, a failed extraction or a changed
# SHA-256 (a Debian point release) turns CI red rather than skipping the Falcon tests.
option(HETVP_REQUIRE_NOUVEAU "Fail at configure time when nouveau's GF100 firmware is not available" OFF)

set(HETVP_LINUX_SOURCE_TARBALL /usr/src/linux-source-6.1.tar.xz CACHE FILEPATH
    "Debian linux-source-6.1 tarball holding nouveau's GF100 graphics firmware")
# Pinned: the two headers as shipped in Debian bookworm's linux-source-6.1.
set(HETVP_NOUVEAU_HUB_SHA256 608c7a1c63d12ebeb56839cdab28dfd96eba0170a17f1eb9b509859561f31ec7)
set(HETVP_NOUVEAU_GPC_SHA256 dcc8fbee6ff47da0a413719753033ccaf087cb215de11cf8ce268b4d4f295045)

function(hetvp_nouveau_firmware out_cpp)
  set(dir ${PROJECT_BINARY_DIR}/nouveau-fw)
  set(hub ${dir}/hubgf100.fuc3.h)
  set(gpc ${dir}/gpcgf100.fuc3.h)
  set(reason "")
  set(have_files FALSE)
  if(EXISTS ${hub} AND EXISTS ${gpc})
    file(SHA256 ${hub} h1)
    file(SHA256 ${gpc} h2)
    if(h1 STREQUAL HETVP_NOUVEAU_HUB_SHA256 AND h2 STREQUAL HETVP_NOUVEAU_GPC_SHA256)
      set(have_files TRUE)
    endif()
  endif()
  if(NOT have_files)
    if(NOT EXISTS ${HETVP_LINUX_SOURCE_TARBALL})
      set(reason "nouveau GF100 firmware not available: ${HETVP_LINUX_SOURCE_TARBALL} not found (install the Debian package linux-source-6.1, see .ci/install-deps)")
    else()
      message(STATUS "nouveau firmware: extracting hubgf100.fuc3.h and gpcgf100.fuc3.h from ${HETVP_LINUX_SOURCE_TARBALL}")
      set(tmp ${dir}/extract)
      file(REMOVE_RECURSE ${tmp})
      file(MAKE_DIRECTORY ${tmp})
      execute_process(
        COMMAND tar -xJf ${HETVP_LINUX_SOURCE_TARBALL} --wildcards */gr/fuc/hubgf100.fuc3.h */gr/fuc/gpcgf100.fuc3.h
        WORKING_DIRECTORY ${tmp} RESULT_VARIABLE rc ERROR_VARIABLE err)
      file(GLOB_RECURSE found_hub ${tmp}/hubgf100.fuc3.h)
      file(GLOB_RECURSE found_gpc ${tmp}/gpcgf100.fuc3.h)
      if(NOT rc EQUAL 0 OR NOT found_hub OR NOT found_gpc)
        string(STRIP "${err}" err)
        string(REGEX REPLACE "[\r\n]+" "; " err "${err}")  # tar's lines as one
        set(reason "nouveau GF100 firmware not available: could not extract */gr/fuc/{hub,gpc}gf100.fuc3.h from ${HETVP_LINUX_SOURCE_TARBALL} (tar exit status ${rc}: ${err})")
      else()
        list(GET found_hub 0 found_hub)
        list(GET found_gpc 0 found_gpc)
        file(COPY_FILE ${found_hub} ${hub})
        file(COPY_FILE ${found_gpc} ${gpc})
        file(SHA256 ${hub} h1)
        file(SHA256 ${gpc} h2)
        if(NOT h1 STREQUAL HETVP_NOUVEAU_HUB_SHA256)
          set(reason "nouveau GF100 firmware not used: hubgf100.fuc3.h from ${HETVP_LINUX_SOURCE_TARBALL} has SHA-256 ${h1}, hetvp pins ${HETVP_NOUVEAU_HUB_SHA256} (another kernel version?)")
        elseif(NOT h2 STREQUAL HETVP_NOUVEAU_GPC_SHA256)
          set(reason "nouveau GF100 firmware not used: gpcgf100.fuc3.h from ${HETVP_LINUX_SOURCE_TARBALL} has SHA-256 ${h2}, hetvp pins ${HETVP_NOUVEAU_GPC_SHA256} (another kernel version?)")
        endif()
      endif()
      file(REMOVE_RECURSE ${tmp})
    endif()
  endif()
  if(reason STREQUAL "")
    message(STATUS "nouveau firmware: ${hub}, ${gpc} (SHA-256 pinned, ok)")
    set(HETVP_NOUVEAU_FW_AVAILABLE 1)
    set(HETVP_NOUVEAU_FW_INCLUDES "#include \"${hub}\"\n#include \"${gpc}\"")
  elseif(HETVP_REQUIRE_NOUVEAU)
    message(FATAL_ERROR "${reason}. HETVP_REQUIRE_NOUVEAU is ON (CI): the Falcon tests must run, not skip.")
  else()
    message(WARNING "${reason}. Everything else builds; the nouveau-firmware tests are skipped.")
    set(HETVP_NOUVEAU_FW_AVAILABLE 0)
    set(HETVP_NOUVEAU_FW_INCLUDES "")
  endif()
  # The reason goes into a C string literal (nouveau_fw.cpp.in): tar's message may hold several
  # lines, quotes and backslashes, so escape those and join the lines.
  string(REPLACE "\\" "\\\\" HETVP_NOUVEAU_FW_REASON_C "${reason}")
  string(REPLACE "\"" "\\\"" HETVP_NOUVEAU_FW_REASON_C "${HETVP_NOUVEAU_FW_REASON_C}")
  string(REGEX REPLACE "[\r\n\t]+" " " HETVP_NOUVEAU_FW_REASON_C "${HETVP_NOUVEAU_FW_REASON_C}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/nouveau_fw.cpp.in ${out_cpp} @ONLY)
  set(HETVP_NOUVEAU_FW_REASON "${reason}" PARENT_SCOPE)
endfunction()
