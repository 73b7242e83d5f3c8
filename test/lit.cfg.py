# -*- Python -*-
# lit configuration for aicc. `lit build/test` runs everything below test/.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "AICC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.aicc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

config.substitutions.append(("%aicc_src_root", config.aicc_src_root))
config.substitutions.append(("%aicc_obj_root", config.aicc_obj_root))
config.substitutions.append(("%python", config.python_executable))

tool_dirs = [config.aicc_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["aicc", "aicc-opt", "aicc-runtime-c-abi-test", "not", "count",
     "llvm-objdump", "llvm-readelf"], tool_dirs)
llvm_config.with_environment("PATH", config.aicc_tools_dir, append_path=True)

# The cuda target needs the CUDA toolkit (ptxas, libdevice) to compile;
# tests that compile for it are reported UNSUPPORTED without one.
cuda_root = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME") or \
    "/usr/local/cuda"
if os.access(os.path.join(cuda_root, "bin", "ptxas"), os.X_OK):
    config.available_features.add("cuda-toolkit")
llvm_config.with_system_environment(["CUDA_PATH", "CUDA_HOME"])

# Tests of the CPU's VNNI kernels run them where the host has VNNI.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = cpuinfo.read()
    if " avx512_vnni" in flags or " avx_vnni" in flags:
        config.available_features.add("host-vnni")
except OSError:
    pass

# Tests that run compiled code on an NVIDIA GPU need one (and its driver);
# without, lit reports them UNSUPPORTED, which `lit -sv` lists by name.
if os.path.exists("/dev/nvidia0") and any(
        os.path.exists(os.path.join(d, "libcuda.so.1"))
        for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib",
                  "/usr/local/nvidia/lib64", "/usr/local/cuda/compat")):
    config.available_features.add("cuda-device")
