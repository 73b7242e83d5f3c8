//===- BundleWriter.cpp - Writing model.bin -------------------------------===//

#include "aicc/Bundle/BundleWriter.h"

#include "Sha256.h" // runtime/src: the reader's checksum

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstring>

using namespace aicc;
using namespace aicc::bundle;
using llvm::Error;

namespace {
Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

uint64_t alignTo(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

template <typename T> void append(std::string &out, const T &value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof(T));
}

/// The string table: offset 0 is the empty string.
class Strings {
public:
  Strings() { data.push_back('\0'); }
  uint32_t add(llvm::StringRef s) {
    if (s.empty())
      return 0;
    auto [it, inserted] = offsets.try_emplace(s, data.size());
    if (inserted) {
      data.append(s.begin(), s.end());
      data.push_back('\0');
    }
    return it->second;
  }
  std::string data;

private:
  llvm::StringMap<uint32_t> offsets;
};

/// Writes to the stream and the running digest at once.
class Sink {
public:
  explicit Sink(llvm::raw_pwrite_stream &stream) : stream(stream) {}
  void write(llvm::ArrayRef<char> bytes) {
    stream.write(bytes.data(), bytes.size());
    sha.update(bytes.data(), bytes.size());
    position += bytes.size();
  }
  void padTo(uint64_t offset) {
    static const char zeros[4096] = {};
    while (position < offset) {
      uint64_t n = std::min<uint64_t>(offset - position, sizeof(zeros));
      write(llvm::ArrayRef<char>(zeros, n));
    }
  }
  uint64_t position = 0;
  // The runtime's own SHA-256, as the reader checks it (LLVM's counts the
  // length in 32 bits and goes wrong past 512 MiB).
  aicc::runtime::Sha256 sha;
  llvm::raw_pwrite_stream &stream;
};
} // namespace

uint64_t Tensor::byteSize() const {
  uint64_t count = 1;
  for (int64_t d : dims)
    count *= static_cast<uint64_t>(d);
  return count * aicc_dtype_size(dtype);
}

Error bundle::writeBundle(const Bundle &bundle,
                          llvm::raw_pwrite_stream &stream) {
  if (bundle.codeObjects.empty())
    return makeError("a bundle needs at least one code object");
  Strings strings;
  uint32_t modelName = strings.add(bundle.modelName);

  // MANIFEST: inputs, outputs, weights; CONSTANTS: the weights' bytes.
  std::string manifest;
  std::vector<int64_t> dims;
  std::vector<aicc_tensor_record> records;
  uint64_t constantsSize = 0;
  auto addTensors = [&](const std::vector<Tensor> &tensors,
                        aicc_tensor_role role) -> Error {
    for (const Tensor &tensor : tensors) {
      if (aicc_dtype_size(tensor.dtype) == 0)
        return makeError("tensor '" + tensor.name +
                         "' has an element type bundles cannot hold");
      if (tensor.dims.size() > AICC_BUNDLE_MAX_RANK)
        return makeError("tensor '" + tensor.name + "' has rank " +
                         llvm::Twine(tensor.dims.size()) + ", more than " +
                         llvm::Twine(AICC_BUNDLE_MAX_RANK));
      aicc_tensor_record record = {};
      record.name = strings.add(tensor.name);
      record.role = role;
      record.dtype = tensor.dtype;
      record.rank = static_cast<uint32_t>(tensor.dims.size());
      record.first_dim = static_cast<uint32_t>(dims.size());
      record.byte_size = tensor.byteSize();
      dims.insert(dims.end(), tensor.dims.begin(), tensor.dims.end());
      if (role == AICC_ROLE_WEIGHT) {
        if (tensor.bytes().size() != record.byte_size)
          return makeError("weight '" + tensor.name + "' has " +
                           llvm::Twine(tensor.bytes().size()) +
                           " bytes of data for " +
                           llvm::Twine(record.byte_size));
        constantsSize = alignTo(constantsSize, AICC_BUNDLE_CONSTANT_ALIGNMENT);
        record.data_offset = constantsSize;
        constantsSize += record.byte_size;
      }
      records.push_back(record);
    }
    return Error::success();
  };
  if (Error e = addTensors(bundle.inputs, AICC_ROLE_INPUT))
    return e;
  if (Error e = addTensors(bundle.outputs, AICC_ROLE_OUTPUT))
    return e;
  if (Error e = addTensors(bundle.weights, AICC_ROLE_WEIGHT))
    return e;
  aicc_manifest_header manifestHeader = {};
  manifestHeader.model_name = modelName;
  manifestHeader.tensor_count = static_cast<uint32_t>(records.size());
  manifestHeader.input_count = static_cast<uint32_t>(bundle.inputs.size());
  manifestHeader.output_count = static_cast<uint32_t>(bundle.outputs.size());
  manifestHeader.weight_count = static_cast<uint32_t>(bundle.weights.size());
  manifestHeader.dim_count = static_cast<uint32_t>(dims.size());
  append(manifest, manifestHeader);
  for (const aicc_tensor_record &record : records)
    append(manifest, record);
  for (int64_t d : dims)
    append(manifest, d);

  // PLAN.
  std::string plan;
  aicc_plan_header planHeader = {};
  planHeader.arena_size = bundle.arenaSize;
  planHeader.arena_alignment = bundle.arenaAlignment;
  planHeader.step_count = static_cast<uint32_t>(bundle.steps.size());
  std::vector<aicc_buffer_ref> args;
  std::vector<aicc_launch_step> steps;
  for (const LaunchStep &step : bundle.steps) {
    aicc_launch_step record = {};
    record.target = step.target;
    record.entry = strings.add(step.entry);
    record.first_arg = static_cast<uint32_t>(args.size());
    record.arg_count = static_cast<uint32_t>(step.args.size());
    for (int d = 0; d < 3; ++d) {
      record.grid[d] = step.grid[d];
      record.block[d] = step.block[d];
    }
    record.shared_bytes = step.sharedBytes;
    record.source = strings.add(step.source);
    record.bytes = step.bytes;
    record.flops = step.flops;
    record.math = step.math;
    for (const aicc_buffer_ref &arg : step.args)
      if (arg.kind == AICC_BUFFER_TENSOR_MAP &&
          arg.index >= bundle.tensorMaps.size())
        return makeError("step '" + step.entry + "' names tensor map " +
                         llvm::Twine(arg.index) + " of " +
                         llvm::Twine(bundle.tensorMaps.size()));
    args.insert(args.end(), step.args.begin(), step.args.end());
    steps.push_back(record);
  }
  planHeader.arg_count = static_cast<uint32_t>(args.size());
  planHeader.tensor_map_count = static_cast<uint32_t>(bundle.tensorMaps.size());
  append(plan, planHeader);
  for (const aicc_launch_step &step : steps)
    append(plan, step);
  for (const aicc_buffer_ref &arg : args)
    append(plan, arg);
  for (const aicc_tensor_map &map : bundle.tensorMaps)
    append(plan, map);

  // CODE headers (the images follow each header).
  std::vector<aicc_code_header> codeHeaders;
  for (const CodeObject &code : bundle.codeObjects) {
    aicc_code_header header = {};
    header.target = code.target;
    header.format = code.format;
    header.arch = strings.add(code.arch);
    header.required_features = code.requiredFeatures;
    header.min_driver = code.minDriver;
    header.image_offset =
        alignTo(sizeof(aicc_code_header), AICC_BUNDLE_SECTION_ALIGNMENT);
    header.image_size = code.image.size();
    codeHeaders.push_back(header);
  }

  // Layout.
  std::vector<aicc_section_entry> sections;
  uint32_t sectionCount = 4 + static_cast<uint32_t>(codeHeaders.size());
  uint64_t offset = sizeof(aicc_bundle_header) +
                    uint64_t(sectionCount) * sizeof(aicc_section_entry);
  auto addSection = [&](aicc_section_kind kind, uint64_t size,
                        uint32_t alignment) {
    aicc_section_entry entry = {};
    entry.kind = kind;
    entry.alignment = alignment;
    entry.offset = alignTo(offset, alignment);
    entry.size = size;
    offset = entry.offset + size;
    sections.push_back(entry);
  };
  addSection(AICC_SECTION_STRINGS, strings.data.size(),
             AICC_BUNDLE_SECTION_ALIGNMENT);
  addSection(AICC_SECTION_MANIFEST, manifest.size(),
             AICC_BUNDLE_SECTION_ALIGNMENT);
  addSection(AICC_SECTION_PLAN, plan.size(), AICC_BUNDLE_SECTION_ALIGNMENT);
  for (const aicc_code_header &header : codeHeaders)
    addSection(AICC_SECTION_CODE, header.image_offset + header.image_size,
               AICC_BUNDLE_SECTION_ALIGNMENT);
  addSection(AICC_SECTION_CONSTANTS, constantsSize, AICC_BUNDLE_PAGE_ALIGNMENT);
  uint64_t fileSize = offset;

  aicc_bundle_header header = {};
  std::memcpy(header.magic, AICC_BUNDLE_MAGIC, AICC_BUNDLE_MAGIC_SIZE);
  header.format_version = AICC_BUNDLE_FORMAT_VERSION;
  header.header_size = sizeof(aicc_bundle_header);
  header.file_size = fileSize;
  header.section_table_offset = sizeof(aicc_bundle_header);
  header.section_count = sectionCount;
  std::strncpy(header.producer, bundle.producer.c_str(),
               sizeof(header.producer) - 1);

  // Stream everything, hashing as it goes.
  Sink sink(stream);
  sink.write({reinterpret_cast<const char *>(&header), sizeof(header)});
  for (const aicc_section_entry &entry : sections)
    sink.write({reinterpret_cast<const char *>(&entry), sizeof(entry)});
  size_t next = 0;
  auto section = [&]() -> const aicc_section_entry & {
    const aicc_section_entry &entry = sections[next++];
    sink.padTo(entry.offset);
    return entry;
  };
  section();
  sink.write(strings.data);
  section();
  sink.write(manifest);
  section();
  sink.write(plan);
  for (auto [code, codeHeader] : llvm::zip(bundle.codeObjects, codeHeaders)) {
    const aicc_section_entry &entry = section();
    sink.write(
        {reinterpret_cast<const char *>(&codeHeader), sizeof(codeHeader)});
    sink.padTo(entry.offset + codeHeader.image_offset);
    sink.write(code.image);
  }
  const aicc_section_entry &constants = section();
  size_t recordIndex = bundle.inputs.size() + bundle.outputs.size();
  for (const Tensor &weight : bundle.weights) {
    sink.padTo(constants.offset + records[recordIndex++].data_offset);
    sink.write(weight.bytes());
  }
  sink.padTo(fileSize);

  std::array<uint8_t, 32> digest = sink.sha.finish();
  stream.pwrite(reinterpret_cast<const char *>(digest.data()), digest.size(),
                offsetof(aicc_bundle_header, digest));
  return Error::success();
}

Error bundle::writeBundleFile(const Bundle &bundle, llvm::StringRef path) {
  int fd;
  llvm::SmallString<256> tempPath;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, tempPath))
    return makeError("cannot create a file next to '" + path +
                     "': " + ec.message());
  {
    llvm::raw_fd_ostream stream(fd, /*shouldClose=*/true);
    Error error = writeBundle(bundle, stream);
    stream.close();
    if (!error && stream.has_error()) {
      error = makeError("writing '" + tempPath +
                        "' failed: " + stream.error().message());
      stream.clear_error();
    }
    if (error) {
      llvm::sys::fs::remove(tempPath);
      return error;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tempPath, path)) {
    llvm::sys::fs::remove(tempPath);
    return makeError("cannot move the bundle to '" + path +
                     "': " + ec.message());
  }
  return Error::success();
}
