/*===- aicc/bundle_format.h - The model.bin container -----------*- C -*-===*
 *
 * The on-disk layout of a compiled model, owned by the runtime: the compiler
 * includes this header to write bundles, the runtime to read them. The prose
 * specification, with the validation rules, is docs/bundle-format.md; the
 * two change together, and any change to a structure below bumps
 * AICC_BUNDLE_FORMAT_VERSION.
 *
 * All integers are little-endian. Every structure has a fixed size, asserted
 * below, and no implicit padding. A string is a uint32_t offset into the
 * STRINGS section naming a NUL-terminated UTF-8 sequence inside it.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AICC_BUNDLE_FORMAT_H
#define AICC_BUNDLE_FORMAT_H

#include "aicc/runtime.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AICC_BUNDLE_MAGIC "AICCBNDL"
#define AICC_BUNDLE_MAGIC_SIZE 8
#define AICC_BUNDLE_FORMAT_VERSION 4u
/* Sections start at multiples of this; CONSTANTS at a multiple of
 * AICC_BUNDLE_PAGE_ALIGNMENT, so that it can be mapped on its own. */
#define AICC_BUNDLE_SECTION_ALIGNMENT 64u
#define AICC_BUNDLE_PAGE_ALIGNMENT 4096u
/* Each weight starts at a multiple of this within CONSTANTS. */
#define AICC_BUNDLE_CONSTANT_ALIGNMENT 64u
#define AICC_BUNDLE_MAX_RANK 32u

/*===-- Header and section table -----------------------------------------===*/

typedef struct aicc_bundle_header {
  char magic[AICC_BUNDLE_MAGIC_SIZE]; /* "AICCBNDL", no NUL */
  uint32_t format_version;            /* AICC_BUNDLE_FORMAT_VERSION */
  uint32_t header_size;               /* sizeof(aicc_bundle_header) */
  uint64_t file_size;                 /* the whole file, in bytes */
  uint64_t section_table_offset;      /* aicc_section_entry[section_count] */
  uint32_t section_count;
  uint32_t flags;       /* zero */
  char producer[32];    /* "aicc 0.1.0", NUL-padded */
  uint8_t digest[32];   /* SHA-256 of the file with these 32 bytes zeroed */
  uint8_t reserved[24]; /* zero */
} aicc_bundle_header;

typedef enum aicc_section_kind {
  AICC_SECTION_STRINGS = 1,  /* the string table, exactly one */
  AICC_SECTION_MANIFEST = 2, /* tensors: inputs, outputs, weights; one */
  AICC_SECTION_PLAN = 3,     /* memory plan and launch plan; one */
  AICC_SECTION_CODE = 4,     /* one code object per target variant; 1+ */
  AICC_SECTION_CONSTANTS = 5 /* weight bytes; one, possibly empty */
} aicc_section_kind;

typedef struct aicc_section_entry {
  uint32_t kind;      /* aicc_section_kind */
  uint32_t flags;     /* zero */
  uint64_t offset;    /* from the start of the file */
  uint64_t size;      /* in bytes */
  uint32_t alignment; /* of offset; a power of two >= 8 */
  uint32_t reserved;  /* zero */
} aicc_section_entry;

/*===-- MANIFEST ----------------------------------------------------------===*/

/* Element types are aicc_dtype of aicc/runtime.h (ONNX numbering). */

typedef enum aicc_tensor_role {
  AICC_ROLE_INPUT = 1,
  AICC_ROLE_OUTPUT = 2,
  AICC_ROLE_WEIGHT = 3
} aicc_tensor_role;

/* Followed by tensor_count aicc_tensor_record (all inputs in graph order,
 * then all outputs in graph order, then all weights), then dim_count
 * int64_t dimensions. */
typedef struct aicc_manifest_header {
  uint32_t model_name; /* string */
  uint32_t tensor_count;
  uint32_t input_count;
  uint32_t output_count;
  uint32_t weight_count;
  uint32_t dim_count;
  uint32_t reserved[2]; /* zero */
} aicc_manifest_header;

typedef struct aicc_tensor_record {
  uint32_t name;        /* string */
  uint32_t role;        /* aicc_tensor_role */
  uint32_t dtype;       /* aicc_dtype */
  uint32_t rank;        /* <= AICC_BUNDLE_MAX_RANK */
  uint32_t first_dim;   /* index of dims[0] in the dimension array */
  uint32_t reserved0;   /* zero */
  uint64_t byte_size;   /* element count * element size */
  uint64_t data_offset; /* weights: offset in CONSTANTS; others zero */
  uint64_t reserved1;   /* zero */
} aicc_tensor_record;

/*===-- PLAN --------------------------------------------------------------===*/

/* Followed by step_count aicc_launch_step, then arg_count aicc_buffer_ref,
 * then tensor_map_count aicc_tensor_map.
 */
typedef struct aicc_plan_header {
  uint64_t arena_size;      /* bytes of scratch memory per context */
  uint32_t arena_alignment; /* a power of two */
  uint32_t step_count;
  uint32_t arg_count;
  uint32_t tensor_map_count; /* CUDA steps' TMA tensor maps */
  uint32_t reserved[2];      /* zero */
} aicc_plan_header;

typedef enum aicc_target {
  AICC_TARGET_CPU_X86_64 = 1,
  AICC_TARGET_CUDA = 2,
  AICC_TARGET_ROCM = 3,
  AICC_TARGET_SYSTOLIC = 4
} aicc_target;

/* One step: call `entry` of the chosen code object of `target` with the
 * addresses of args [first_arg, first_arg + arg_count). On a GPU target the
 * entry is a kernel, launched with `grid` blocks of `block` threads and
 * `shared_bytes` of dynamic shared memory, its parameters the device
 * addresses of the arguments, in order; on the CPU those fields are zero. */
typedef struct aicc_launch_step {
  uint32_t target; /* aicc_target */
  uint32_t entry;  /* string: the symbol to call */
  uint32_t first_arg;
  uint32_t arg_count;
  uint32_t grid[3];      /* GPU: blocks in x, y, z, each >= 1; CPU: zero */
  uint32_t block[3];     /* GPU: threads in x, y, z, each >= 1; CPU: zero */
  uint32_t shared_bytes; /* GPU: dynamic shared memory; CPU: zero */
  uint32_t source;       /* string: the ONNX nodes it came from, or "" */
  /* What the step computes and moves, for profiles (0: not known): */
  uint64_t bytes;    /* of the buffers it reads and writes, each counted once */
  uint64_t flops;    /* floating-point operations; a multiply-add is two */
  uint32_t math;     /* aicc_math_unit: what does the flops */
  uint32_t reserved; /* zero */
} aicc_launch_step;

/* The arithmetic units a step's flops run on, whose peak bounds it. */
typedef enum aicc_math_unit {
  AICC_MATH_SCALAR = 0,    /* the scalar (CUDA core, SIMD) units, fp32 */
  AICC_MATH_TENSOR_16 = 1, /* matrix units on 16-bit operands */
  AICC_MATH_TENSOR_32 = 2  /* matrix units on f32 or tf32 operands */
} aicc_math_unit;

typedef enum aicc_buffer_kind {
  AICC_BUFFER_INPUT = 1,  /* index: an input */
  AICC_BUFFER_OUTPUT = 2, /* index: an output */
  AICC_BUFFER_WEIGHT = 3, /* index: a weight */
  AICC_BUFFER_ARENA = 4,  /* offset: bytes into the arena */
  /* index: a tensor map of the plan; the kernel parameter is the device
   * address of the 128-byte CUtensorMap the runtime encodes from it. CUDA
   * steps only. */
  AICC_BUFFER_TENSOR_MAP = 5
} aicc_buffer_kind;

typedef struct aicc_buffer_ref {
  uint32_t kind;   /* aicc_buffer_kind */
  uint32_t index;  /* within its role; zero for the arena */
  uint64_t offset; /* bytes into the arena; zero for the others */
} aicc_buffer_ref;

/* A tiled tensor map for the Hopper tensor memory accelerator: the tensor of
 * `rank` dimensions (innermost first) that starts `byte_offset` bytes into
 * `buffer` (an input, output, weight or the arena at an offset that is a
 * multiple of 16, not another tensor map), read in boxes of `box` elements,
 * as cuTensorMapEncodeTiled takes it (no interleave, element strides 1,
 * zeros out of bounds; the runtime picks the L2 promotion).
 * The tensor lies inside its buffer: byte_offset plus the bytes of its last
 * element's offset (sum of (dims[i] - 1) * stride of dimension i, with
 * stride 0 the element size and strides[i - 1] the others) plus one element
 * is at most the buffer's size. */
typedef struct aicc_tensor_map {
  aicc_buffer_ref buffer;
  uint64_t byte_offset; /* a multiple of 16 */
  uint32_t dtype;       /* aicc_dtype: float16, bfloat16 or float */
  uint32_t rank;        /* 1 to 5 */
  uint64_t dims[5];     /* elements, each 1 to 2^32; unused ones zero */
  uint64_t strides[4];  /* bytes of dimensions 1 to rank - 1: multiples of 16
                           below 2^40; unused ones zero */
  uint32_t box[5];      /* elements, each 1 to 256; unused ones zero; box[0]
                           times the element size a multiple of 16 bytes, at
                           most the swizzle span when swizzled */
  uint32_t swizzle;     /* bytes: 0 (none), 32, 64 or 128 */
} aicc_tensor_map;

/*===-- CODE --------------------------------------------------------------===*/

typedef enum aicc_code_format {
  AICC_CODE_ELF_SHARED_OBJECT = 1, /* x86-64 ELF, exports the entries */
  AICC_CODE_CUBIN = 2, /* CUDA ELF for exactly one sm_XY (arch "sm_90") */
  AICC_CODE_PTX = 3,   /* NUL-terminated PTX text for arch and newer */
  AICC_CODE_HSACO = 4  /* AMDGPU code object for one gfx target */
} aicc_code_format;

/* ISA extensions a CPU code object may need, by bit. The compiler records
 * those of the CPU it compiled for; the runtime refuses a code object that
 * needs one the host lacks. X(name, bit, llvm-and-cpuid-name). */
#define AICC_CPU_FEATURES(X)                                                   \
  X(SSE4_2, 0, "sse4.2")                                                       \
  X(AVX, 1, "avx")                                                             \
  X(AVX2, 2, "avx2")                                                           \
  X(FMA, 3, "fma")                                                             \
  X(F16C, 4, "f16c")                                                           \
  X(BMI2, 5, "bmi2")                                                           \
  X(AVX512F, 6, "avx512f")                                                     \
  X(AVX512BW, 7, "avx512bw")                                                   \
  X(AVX512DQ, 8, "avx512dq")                                                   \
  X(AVX512VL, 9, "avx512vl")                                                   \
  X(AVX512VNNI, 10, "avx512vnni")                                              \
  X(AVX512BF16, 11, "avx512bf16")                                              \
  X(AVX512FP16, 12, "avx512fp16")                                              \
  X(AVXVNNI, 13, "avxvnni")                                                    \
  X(AMX_TILE, 14, "amx-tile")                                                  \
  X(AMX_INT8, 15, "amx-int8")                                                  \
  X(AMX_BF16, 16, "amx-bf16")

typedef enum aicc_cpu_feature {
#define AICC_CPU_FEATURE_ENUM(name, bit, string) AICC_CPU_##name = 1 << bit,
  AICC_CPU_FEATURES(AICC_CPU_FEATURE_ENUM)
#undef AICC_CPU_FEATURE_ENUM
      AICC_CPU_FEATURE_LAST_ = 0
} aicc_cpu_feature;

/* The section starts with this header; the image lies at image_offset from
 * the section's start. */
typedef struct aicc_code_header {
  uint32_t target;            /* aicc_target */
  uint32_t format;            /* aicc_code_format */
  uint32_t arch;              /* string: LLVM CPU name or GPU architecture */
  uint32_t min_driver;        /* CUDA PTX: lowest cuDriverGetVersion that
                                 JIT-compiles it (13000 = 13.0); else zero */
  uint64_t required_features; /* x86: aicc_cpu_feature bits */
  uint64_t image_offset;      /* a multiple of AICC_BUNDLE_SECTION_ALIGNMENT */
  uint64_t image_size;
  uint64_t reserved1[3]; /* zero */
} aicc_code_header;

/*===-- The CPU code object's calling convention --------------------------===*/

/* A task of a parallel loop: iterations [begin, end). */
typedef void (*aicc_cpu_task_fn)(void *ctx, int64_t begin, int64_t end);

/* What compiled code receives from the runtime. Compiled code reads only
 * the first field; the runtime may keep its own state after it. */
typedef struct aicc_cpu_exec {
  /* Runs task over [0, count) split across the context's threads and
   * returns when every iteration has run. */
  void (*parallel_for)(struct aicc_cpu_exec *exec, aicc_cpu_task_fn task,
                       void *ctx, int64_t count);
} aicc_cpu_exec;

/* The exported entry of a step: buffers holds one address per argument of
 * the step, in order. */
typedef void (*aicc_cpu_entry_fn)(void *const *buffers, aicc_cpu_exec *exec);

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(__cplusplus)
static_assert(sizeof(aicc_bundle_header) == 128, "header layout");
static_assert(sizeof(aicc_section_entry) == 32, "section entry layout");
static_assert(sizeof(aicc_manifest_header) == 32, "manifest header layout");
static_assert(sizeof(aicc_tensor_record) == 48, "tensor record layout");
static_assert(sizeof(aicc_plan_header) == 32, "plan header layout");
static_assert(sizeof(aicc_launch_step) == 72, "launch step layout");
static_assert(sizeof(aicc_buffer_ref) == 16, "buffer ref layout");
static_assert(sizeof(aicc_tensor_map) == 128, "tensor map layout");
static_assert(sizeof(aicc_code_header) == 64, "code header layout");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(aicc_bundle_header) == 128, "header layout");
_Static_assert(sizeof(aicc_section_entry) == 32, "section entry layout");
_Static_assert(sizeof(aicc_manifest_header) == 32, "manifest header layout");
_Static_assert(sizeof(aicc_tensor_record) == 48, "tensor record layout");
_Static_assert(sizeof(aicc_plan_header) == 32, "plan header layout");
_Static_assert(sizeof(aicc_launch_step) == 72, "launch step layout");
_Static_assert(sizeof(aicc_buffer_ref) == 16, "buffer ref layout");
_Static_assert(sizeof(aicc_tensor_map) == 128, "tensor map layout");
_Static_assert(sizeof(aicc_code_header) == 64, "code header layout");
#endif

#endif /* AICC_BUNDLE_FORMAT_H */
