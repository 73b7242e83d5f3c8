/*===- aicc/runtime.h - The aicc runtime C ABI ------------------*- C -*-===*
 *
 * The stable C interface of the aicc runtime: load a compiled model
 * (model.bin), create an execution context per thread, run it.
 *
 *   aicc_model *model;
 *   if (aicc_model_load_file("model.bin", &model) != AICC_OK)
 *     fprintf(stderr, "%s\n", aicc_last_error_message());
 *   aicc_context *context;
 *   aicc_context_create(model, NULL, &context);
 *   aicc_context_run(context, inputs, 1, outputs, 1);
 *   aicc_context_release(context);
 *   aicc_model_release(model);
 *
 * Every entry point reports failure through an aicc_status_t and a message
 * retrievable on the same thread; no function aborts, throws across this
 * boundary or writes to stdout/stderr.
 *
 * Threading: an aicc_model is immutable once loaded and may be used from any
 * number of threads at once. An aicc_context belongs to one thread at a time
 * (calls on one context must not overlap); create one per thread.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AICC_RUNTIME_H
#define AICC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every runtime call. AICC_OK is zero; every other value names one
/// failure class so that callers can branch on it without parsing messages.
typedef enum aicc_status_t {
  AICC_OK = 0,
  AICC_INVALID_ARGUMENT = 1,    /* a caller passed a bad handle or value */
  AICC_INVALID_BUNDLE = 2,      /* the bundle is malformed or corrupted */
  AICC_UNSUPPORTED_VERSION = 3, /* the bundle's format version is unknown */
  AICC_UNSUPPORTED_TARGET = 4,  /* no code in the bundle for this device */
  AICC_RESOURCE_EXHAUSTED = 5,  /* an allocation failed */
  AICC_DEVICE_UNAVAILABLE = 6,  /* the device or its driver is missing */
  AICC_DEVICE_LOST = 7,         /* the device failed; the context is unusable */
  AICC_IO_ERROR = 8,            /* a file could not be read */
  AICC_INTERNAL = 9             /* a runtime bug; please report it */
} aicc_status_t;

/// Element types of model inputs and outputs, numbered as ONNX's
/// TensorProto.DataType.
typedef enum aicc_dtype {
  AICC_DTYPE_FLOAT32 = 1,
  AICC_DTYPE_UINT8 = 2,
  AICC_DTYPE_INT8 = 3,
  AICC_DTYPE_UINT16 = 4,
  AICC_DTYPE_INT16 = 5,
  AICC_DTYPE_INT32 = 6,
  AICC_DTYPE_INT64 = 7,
  AICC_DTYPE_BOOL = 9, /* one byte, 0 or 1 */
  AICC_DTYPE_FLOAT16 = 10,
  AICC_DTYPE_FLOAT64 = 11,
  AICC_DTYPE_UINT32 = 12,
  AICC_DTYPE_UINT64 = 13,
  AICC_DTYPE_BFLOAT16 = 16,
  AICC_DTYPE_FLOAT8E4M3FN = 17,   /* one byte: 4 exponent, 3 mantissa bits */
  AICC_DTYPE_FLOAT8E4M3FNUZ = 18, /* as above, no -0, bias 8 */
  AICC_DTYPE_FLOAT8E5M2 = 19,     /* one byte: 5 exponent, 2 mantissa bits */
  AICC_DTYPE_FLOAT8E5M2FNUZ = 20  /* as above, no -0, bias 16 */
} aicc_dtype;

/// A short, static, human-readable name for a status code. Never NULL; unknown
/// values map to "unknown status". Thread-safe.
const char *aicc_status_string(aicc_status_t status);

/// The runtime's version as "MAJOR.MINOR.PATCH". Static storage; thread-safe.
const char *aicc_runtime_version(void);

/// What went wrong in the last call that failed on the calling thread, with
/// detail ("bundle: section 3 ends past the end of the file"); "" if none.
/// Valid until the next runtime call on this thread.
const char *aicc_last_error_message(void);

/// Short name of an element type ("float32"); "unknown" for others.
const char *aicc_dtype_name(aicc_dtype dtype);

/// Bytes per element of `dtype`; 0 for an unknown type.
size_t aicc_dtype_size(aicc_dtype dtype);

/*===-- Models ------------------------------------------------------------===*/

/// A loaded, validated model. Immutable; shared by every context created
/// from it. Reference-counted: contexts keep their model alive.
typedef struct aicc_model aicc_model;

/// Loads and validates the bundle at `path` (checksum, every offset, size
/// and count, code for this machine) and maps its code. A model of CUDA or
/// ROCm steps also loads the driver (libcuda.so.1, libamdhip64.so; the
/// environment variables AICC_CUDA_DRIVER and AICC_HIP_RUNTIME name another
/// file), opens device 0 (AICC_CUDA_DEVICE, AICC_HIP_DEVICE), loads the code
/// for it and uploads the weights; no driver or device is
/// AICC_DEVICE_UNAVAILABLE, no code for the device AICC_UNSUPPORTED_TARGET.
/// On success *out_model owns a reference; release it with
/// aicc_model_release.
aicc_status_t aicc_model_load_file(const char *path, aicc_model **out_model);

/// The same from memory; the runtime copies the `size` bytes at `data`.
aicc_status_t aicc_model_load_memory(const void *data, size_t size,
                                     aicc_model **out_model);

/// Drops the caller's reference. NULL is ignored.
void aicc_model_release(aicc_model *model);

/// The graph's name, the producing compiler ("aicc 0.1.0"), and the device
/// and code variant the model runs on ("cpu x86-64-v3", "cuda sm_90 (NVIDIA
/// H100 80GB HBM3)", "cuda sm_86 (NVIDIA RTX A6000), cubin sm_80"). Owned by
/// the model.
const char *aicc_model_name(const aicc_model *model);
const char *aicc_model_producer(const aicc_model *model);
const char *aicc_model_device(const aicc_model *model);
/// The GPU driver the model runs under, "CUDA 13.0"; "" for a CPU model.
/// Owned by the model.
const char *aicc_model_driver(const aicc_model *model);

/// A graph input or output. Pointers are owned by the model.
typedef struct aicc_tensor_info {
  const char *name;
  aicc_dtype dtype;
  uint32_t rank;
  const int64_t *dims; /* rank entries */
  size_t byte_size;    /* the buffer size aicc_context_run expects */
} aicc_tensor_info;

size_t aicc_model_input_count(const aicc_model *model);
size_t aicc_model_output_count(const aicc_model *model);
aicc_status_t aicc_model_input_info(const aicc_model *model, size_t index,
                                    aicc_tensor_info *out_info);
aicc_status_t aicc_model_output_info(const aicc_model *model, size_t index,
                                     aicc_tensor_info *out_info);

/*===-- Execution contexts ------------------------------------------------===*/

/// The per-thread state of running a model: its scratch arena, allocated
/// once at creation, and its worker threads (CPU) or its stream, device
/// memory and captured graph (GPU).
typedef struct aicc_context aicc_context;

/* aicc_context_options.flags. */
/* GPU: launch the steps one by one at every run instead of replaying the
 * run captured once as a CUDA/HIP graph. Slower; for debugging. */
#define AICC_CONTEXT_NO_GRAPHS 1u
/* Time every step of every run (see aicc_context_profile). On a GPU this
 * runs without a graph and records an event pair around each kernel, so
 * runs are slower than unprofiled ones. */
#define AICC_CONTEXT_PROFILE 2u

typedef struct aicc_context_options {
  uint32_t struct_size; /* sizeof(aicc_context_options) */
  /* Threads that run one inference, the calling thread included; 0 means
   * one per online CPU. With several contexts running at once, give each a
   * share of the cores. Ignored for GPU models. */
  uint32_t num_threads;
  /* AICC_CONTEXT_* bits; 0 by default. Callers built against the first
   * version of this struct (struct_size 8) get 0. */
  uint32_t flags;
} aicc_context_options;

/// Fills `options` with the defaults.
void aicc_context_options_init(aicc_context_options *options);

/// Creates a context for `model`; `options` may be NULL for the defaults.
/// On a GPU this allocates the context's device memory and, unless
/// AICC_CONTEXT_NO_GRAPHS or AICC_CONTEXT_PROFILE is set, captures one run
/// as a graph.
aicc_status_t aicc_context_create(aicc_model *model,
                                  const aicc_context_options *options,
                                  aicc_context **out_context);

/// Destroys a context, joins its threads and frees its device memory. NULL
/// is ignored.
void aicc_context_release(aicc_context *context);

/// The threads that run one inference on `context`, the calling thread
/// included: num_threads as resolved at creation (0 became the online CPU
/// count); 1 for a GPU model, whose run is driven by the calling thread. 0
/// for NULL.
uint32_t aicc_context_num_threads(const aicc_context *context);

/// Runs the model once. inputs[i] points to the bytes of input i (row-major,
/// byte_size of its info, any alignment) and outputs[i] to a buffer of
/// output i's byte_size; outputs must not overlap inputs or each other.
/// Input buffers are only read. Blocks until the outputs are written. On a
/// GPU, a failure of the device (a kernel's illegal memory access, say)
/// returns AICC_DEVICE_LOST, and so does every later call on the context;
/// the device is then unusable for the rest of the process.
aicc_status_t aicc_context_run(aicc_context *context, const void *const *inputs,
                               size_t input_count, void *const *outputs,
                               size_t output_count);

/// Which of a model's tensors aicc_context_device_buffer names.
typedef enum aicc_io_kind {
  AICC_IO_INPUT = 0,
  AICC_IO_OUTPUT = 1,
  /* Not a kind: keeps the type 32 bits wide, so that any int value a
   * caller passes is one the runtime can refuse. */
  AICC_IO_KIND_FORCE_32BIT = 0x7fffffff
} aicc_io_kind;

/// Where a GPU context keeps input or output `index` on its device: the
/// buffer's device address (a CUdeviceptr or hipDeviceptr_t value, in the
/// device's primary context, which aicc_model_load_file retains; the CUDA
/// and HIP runtime APIs use the same one) and its size in bytes, the
/// tensor's byte_size. The address stays valid, and the buffer the
/// context's own, until the context is released.
///
/// For data that lives on the GPU: the application writes an input there
/// (a device-to-device copy, or its own kernel) and reads an output there
/// after aicc_context_run_resident, with no trip through host memory.
/// aicc_context_run copies through these buffers too: after it, they hold
/// that run's inputs and outputs.
/// AICC_INVALID_ARGUMENT for a CPU context (its runs read and write the
/// caller's memory in place), an index out of range or NULL pointers;
/// AICC_DEVICE_LOST after a device failure.
aicc_status_t aicc_context_device_buffer(const aicc_context *context,
                                         aicc_io_kind kind, size_t index,
                                         uint64_t *address, size_t *byte_size);

/// Runs the model once on a GPU context's device input buffers
/// (aicc_context_device_buffer) as they are, leaving the outputs in its
/// device output buffers: no copies to or from the host, so the run takes
/// what its kernels take (aicc_context_device_time then gives that time).
/// Work the application queued to fill the inputs must be complete before
/// the call (synchronize its stream); blocks until the kernels finish.
/// AICC_INVALID_ARGUMENT for a CPU context; on a device failure
/// AICC_DEVICE_LOST, as aicc_context_run.
aicc_status_t aicc_context_run_resident(aicc_context *context);

/// The device time of the kernels of the last aicc_context_run (or
/// aicc_context_run_resident) on a GPU `context`, if it succeeded, between
/// events recorded on its stream before the first kernel and after the last
/// (the copies of inputs and outputs, which depend on the host's memory, are
/// outside it): what a model's compute takes with its data on the device.
/// AICC_INVALID_ARGUMENT for a CPU context, before the first run, after a
/// failed one or when the driver could not give the time;
/// AICC_DEVICE_LOST after a device failure, like every call on the
/// context.
aicc_status_t aicc_context_device_time(const aicc_context *context,
                                       double *milliseconds);

/// The time one launch step took in the last run of a context.
typedef struct aicc_profile_entry {
  const char *kernel;  /* the step's entry: kernel or CPU function name */
  const char *source;  /* the ONNX nodes it came from; "" if unknown */
  double milliseconds; /* GPU: between events around the kernel; CPU: wall */
  uint32_t grid[3];    /* GPU launch shape; zeros on the CPU */
  uint32_t block[3];
  /* What the step reads and writes and computes, as the compiler recorded
   * it: the bytes of its buffers, each once, and its floating-point
   * operations (a multiply-add is two); 0 when not known. */
  uint64_t bytes;
  uint64_t flops;
  /* The roofline bound: the least time the step can take on this device,
   * the larger of `bytes` at the device's peak memory bandwidth and
   * `flops` at the peak rate of the units that do them (tensor cores or
   * not); bound_ms / milliseconds is the fraction of the hardware's limit
   * the step reached. 0 where the device's peaks are not known (the CPU,
   * HIP devices, GPUs of an architecture the runtime has no rates for). */
  double bound_ms;
} aicc_profile_entry;

/// The per-step times of the last aicc_context_run on `context`, which must
/// have been created with AICC_CONTEXT_PROFILE (else AICC_INVALID_ARGUMENT):
/// one entry per launch step, in plan order; *count is 0 before the first
/// run. The entries and their strings are owned by the context and valid
/// until its next run or release. After a device failure, returns
/// AICC_DEVICE_LOST like every call on the context.
aicc_status_t aicc_context_profile(const aicc_context *context,
                                   const aicc_profile_entry **entries,
                                   size_t *count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AICC_RUNTIME_H */
