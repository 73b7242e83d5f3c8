# Build-speed defaults for a small machine, applied only where the user did not
# choose otherwise on the command line.

# ccache, when present, as the compiler launcher.
find_program(AICC_CCACHE ccache)
if(AICC_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER ${AICC_CCACHE} CACHE STRING "")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${AICC_CCACHE} CACHE STRING "")
endif()

# LLVM 22's lld. /usr/bin/ld.lld may belong to an older LLVM, so point the
# compiler driver at LLVM 22's bin directory (-B is understood by gcc and clang).
set(AICC_LLD_DIR "/usr/lib/llvm-22/bin" CACHE PATH "Directory holding ld.lld")
option(AICC_USE_LLD "Link with lld from AICC_LLD_DIR" ON)
if(AICC_USE_LLD AND EXISTS "${AICC_LLD_DIR}/ld.lld")
  set(_aicc_ld_flags "-fuse-ld=lld -B${AICC_LLD_DIR}/")
  foreach(kind EXE SHARED MODULE)
    set(CMAKE_${kind}_LINKER_FLAGS_INIT "${_aicc_ld_flags}")
  endforeach()
endif()
