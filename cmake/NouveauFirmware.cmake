# nouveau's graphics context-controller firmware (Linux, MIT licence, Red Hat), obtained at configure
# time from Debian's linux-source-6.1 package and never committed (docs/falcon.md).
#
# hetvp_nouveau_firmware(OUT_CPP) extracts from /usr/src/linux-source-6.1.tar.xz (override:
# -DHETVP_LINUX_SOURCE_TARBALL=...) into ${PROJECT_BINARY_DIR}/nouveau-fw:
#   - the */gr/fuc/{hub,gpc}<chip>.fuc3.h / .fuc5.h headers of the chips in HETVP_NOUVEAU_IMAGES, and
#     checks their pinned SHA-256 sums (they identify the kernel version);
#   - nouveau's Falcon sources: engine/gr/fuc, engine/ce/fuc and subdev/pmu/fuc (into src/gr, src/ce,
#     src/pmu; with their shipped headers, which tests/mcu/falcon/falcon_as compares hetvp falcon-as with).
# The build then assembles every GR image from those sources with hetvp-falcon-as (custom commands:
# cpp + falcon-as, into nouveau-fw/asm/) and writes a loader (OUT_CPP) that includes the assembled
# arrays and exposes them as hetvp::mcu::falcon::nouveau_firmware("gk104") etc. (nouveau_fw.h).
# Without the package, or with other bytes, the loader reports "not available" with the reason, and
# the tests that need the firmware skip with that reason. Sets HETVP_NOUVEAU_FW_REASON ("" = ok) in the
# caller's scope, HETVP_NOUVEAU_SRC_DIR / HETVP_NOUVEAU_SRC_REASON in the cache (for the tests).
# -DHETVP_REQUIRE_NOUVEAU=ON (set by .ci/run, where install-deps installs the package): any of those
# reasons is a configure error instead, so a missing package, a failed extraction or a changed
# SHA-256 (a Debian point release) turns CI red rather than skipping the Falcon tests.
option(HETVP_REQUIRE_NOUVEAU "Fail at configure time when nouveau's graphics firmware is not available" OFF)

set(HETVP_LINUX_SOURCE_TARBALL /usr/src/linux-source-6.1.tar.xz CACHE FILEPATH
    "Debian linux-source-6.1 tarball holding nouveau's graphics firmware")
# Pinned: the headers as shipped in Debian bookworm's linux-source-6.1 (file=SHA-256).
set(HETVP_NOUVEAU_IMAGES
  "hubgf100.fuc3.h=608c7a1c63d12ebeb56839cdab28dfd96eba0170a17f1eb9b509859561f31ec7"
  "gpcgf100.fuc3.h=dcc8fbee6ff47da0a413719753033ccaf087cb215de11cf8ce268b4d4f295045"
  "hubgf117.fuc3.h=76cfe716b9976d3837553ce4f139704555a3508680ed1bc04fe32614915437f8"
  "gpcgf117.fuc3.h=d72717a8cccb7f40f6d1eca970f8715027eb8ee858ec7737bf67b872448ea684"
  "hubgk104.fuc3.h=93b6d541e025a5e66079b1307f783313a3e59703eef1bbf7703ec280bc8566e6"
  "gpcgk104.fuc3.h=8474328f1496f51cfb6a7c45ba863b60b3fb7eca74ac4cbcf537d967387b3531"
  "hubgk110.fuc3.h=87e615b8b79d9d5f96530fe847aad51dd46cdbbbe39e00c3b3860b6ae802226f"
  "gpcgk110.fuc3.h=6c07071db8ddbc5dd638edcfa389bd4d0b718c87607d7b2e4ca87703e9196c93"
  "hubgk208.fuc5.h=a85e8918462f1f5c1e85d3b0619f80aa3c42af2aec74b809acda2495ae20e32e"
  "gpcgk208.fuc5.h=951f78cfa94e3aee96123d6933ea25b8f3addbe727f235375a0a3eff6d31c8b0"
  "hubgm107.fuc5.h=e79f3007e309f078335d8514b4cc5d50a5c23ffa8e6dbb082eae9e0f86f7acc4"
  "gpcgm107.fuc5.h=9a25b7c9d0bb1c40887e76f2883f4d5d397462603d055124d80960622e062812")

# Sets ${ok} TRUE when every pinned file is in ${dir} with its pinned sum; ${bad} names the first that
# is not ("" when missing).
function(_hetvp_nouveau_check dir ok bad)
  set(all TRUE)
  set(first "")
  foreach(entry ${HETVP_NOUVEAU_IMAGES})
    string(REGEX REPLACE "=.*" "" f "${entry}")
    string(REGEX REPLACE ".*=" "" want "${entry}")
    if(NOT EXISTS ${dir}/${f})
      set(all FALSE)
      continue()
    endif()
    file(SHA256 ${dir}/${f} got)
    if(NOT got STREQUAL want)
      set(all FALSE)
      if(first STREQUAL "")
        set(first "${f} has SHA-256 ${got}, hetvp pins ${want}")
      endif()
    endif()
  endforeach()
  set(${ok} ${all} PARENT_SCOPE)
  set(${bad} "${first}" PARENT_SCOPE)
endfunction()

function(hetvp_nouveau_firmware out_cpp)
  set(dir ${PROJECT_BINARY_DIR}/nouveau-fw)
  set(reason "")
  set(patterns "")
  set(names "")
  set(names_text "")
  foreach(entry ${HETVP_NOUVEAU_IMAGES})
    string(REGEX REPLACE "=.*" "" f "${entry}")
    list(APPEND patterns "*/gr/fuc/${f}")
    list(APPEND names ${f})
    string(APPEND names_text " ${f}")
  endforeach()
  # nouveau's Falcon source folders (inside the tarball's drivers/gpu/drm/nouveau/nvkm/), each into src/<last>
  set(src_dirs engine/gr/fuc engine/ce/fuc subdev/pmu/fuc)
  foreach(d ${src_dirs})
    list(APPEND patterns "*/nouveau/nvkm/${d}/*")
  endforeach()
  _hetvp_nouveau_check(${dir} have_files bad)
  if(NOT EXISTS ${dir}/src/extracted.stamp)
    set(have_files FALSE)
  endif()
  if(NOT have_files)
    if(NOT EXISTS ${HETVP_LINUX_SOURCE_TARBALL})
      set(reason "nouveau graphics firmware not available: ${HETVP_LINUX_SOURCE_TARBALL} not found (install the Debian package linux-source-6.1, see .ci/install-deps)")
    else()
      message(STATUS "nouveau firmware: extracting${names_text} from ${HETVP_LINUX_SOURCE_TARBALL}")
      set(tmp ${dir}/extract)
      file(REMOVE_RECURSE ${tmp})
      file(MAKE_DIRECTORY ${tmp})
      execute_process(
        COMMAND tar -xJf ${HETVP_LINUX_SOURCE_TARBALL} --wildcards ${patterns}
        WORKING_DIRECTORY ${tmp} RESULT_VARIABLE rc ERROR_VARIABLE err)
      set(missing "")
      foreach(f ${names})
        file(GLOB_RECURSE found ${tmp}/${f})
        if(found)
          list(GET found 0 found)
          file(COPY_FILE ${found} ${dir}/${f})
        else()
          list(APPEND missing ${f})
        endif()
      endforeach()
      foreach(d ${src_dirs})
        string(REGEX REPLACE "/fuc$" "" part "${d}")
        string(REGEX REPLACE ".*/" "" part "${part}")  # gr, ce, pmu
        file(GLOB found ${tmp}/*/drivers/gpu/drm/nouveau/nvkm/${d}/*)
        if(NOT found)
          list(APPEND missing "${d}/")
        endif()
        file(MAKE_DIRECTORY ${dir}/src/${part})
        foreach(x ${found})
          get_filename_component(name ${x} NAME)
          file(COPY_FILE ${x} ${dir}/src/${part}/${name})
        endforeach()
      endforeach()
      if(NOT rc EQUAL 0 OR missing)
        string(STRIP "${err}" err)
        string(REGEX REPLACE "[\r\n]+" "; " err "${err}")  # tar's lines as one
        set(reason "nouveau graphics firmware not available: could not extract ${missing} from ${HETVP_LINUX_SOURCE_TARBALL} (tar exit status ${rc}: ${err})")
      else()
        _hetvp_nouveau_check(${dir} have_files bad)
        if(NOT have_files)
          set(reason "nouveau graphics firmware not used: ${bad} (from ${HETVP_LINUX_SOURCE_TARBALL}; another kernel version?)")
        else()
          file(WRITE ${dir}/src/extracted.stamp "${HETVP_LINUX_SOURCE_TARBALL}\n")
        endif()
      endif()
      file(REMOVE_RECURSE ${tmp})
    endif()
  endif()
  if(reason STREQUAL "")
    message(STATUS "nouveau firmware: ${dir} (${names_text}; SHA-256 pinned, ok)")
    set(HETVP_NOUVEAU_FW_AVAILABLE 1)
    set(HETVP_NOUVEAU_FW_INCLUDES "")
    # Each image assembled from its source (hubgf100.fuc3 -> asm/hubgf100.fuc3.h) by hetvp-falcon-as:
    # the loader includes those, not the shipped headers.
    set(assembled "")
    foreach(f ${names})
      string(REGEX REPLACE "\\.h$" "" src "${f}")
      add_custom_command(OUTPUT ${dir}/asm/${f}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}/asm
        COMMAND hetvp-falcon-as ${dir}/src/gr/${src} -o ${dir}/asm/${f}
        DEPENDS hetvp-falcon-as ${dir}/src/gr/${src} ${dir}/src/gr/hub.fuc ${dir}/src/gr/gpc.fuc
                ${dir}/src/gr/com.fuc ${dir}/src/gr/macros.fuc ${dir}/src/gr/os.h
        COMMENT "Assembling nouveau's ${src} with hetvp falcon-as" VERBATIM)
      list(APPEND assembled ${dir}/asm/${f})
      string(APPEND HETVP_NOUVEAU_FW_INCLUDES "#include \"${dir}/asm/${f}\"\n")
    endforeach()
    add_custom_target(hetvp_nouveau_fw_assembled DEPENDS ${assembled})
    set_source_files_properties(${out_cpp} PROPERTIES OBJECT_DEPENDS "${assembled}")
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
  # for tests/mcu/falcon (another directory scope): where the sources are, or why they are not
  set(HETVP_NOUVEAU_SRC_DIR "${dir}/src" CACHE INTERNAL "nouveau's extracted Falcon sources")
  set(HETVP_NOUVEAU_SRC_REASON "${reason}" CACHE INTERNAL "why nouveau's Falcon sources are not available")
endfunction()
