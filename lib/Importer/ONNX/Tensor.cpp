//===- Tensor.cpp - ONNX TensorProto to MLIR elements attributes ----------===//

#include "ImporterInternal.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir;

namespace aicc::onnx_importer {

Type convertElementType(MLIRContext *context, int32_t dataType) {
  auto signless = [&](unsigned width) {
    return IntegerType::get(context, width);
  };
  auto unsignedInt = [&](unsigned width) {
    return IntegerType::get(context, width, IntegerType::Unsigned);
  };
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return Float32Type::get(context);
  case onnx::TensorProto::UINT8:
    return unsignedInt(8);
  case onnx::TensorProto::INT8:
    return signless(8);
  case onnx::TensorProto::UINT16:
    return unsignedInt(16);
  case onnx::TensorProto::INT16:
    return signless(16);
  case onnx::TensorProto::INT32:
    return signless(32);
  case onnx::TensorProto::INT64:
    return signless(64);
  case onnx::TensorProto::BOOL:
    return signless(1);
  case onnx::TensorProto::FLOAT16:
    return Float16Type::get(context);
  case onnx::TensorProto::DOUBLE:
    return Float64Type::get(context);
  case onnx::TensorProto::UINT32:
    return unsignedInt(32);
  case onnx::TensorProto::UINT64:
    return unsignedInt(64);
  case onnx::TensorProto::BFLOAT16:
    return BFloat16Type::get(context);
  // The float8 and int4 types came after ONNX 1.12's enum; their numbers are
  // fixed by the ONNX specification.
  case 17:
    return Float8E4M3FNType::get(context);
  case 18:
    return Float8E4M3FNUZType::get(context);
  case 19:
    return Float8E5M2Type::get(context);
  case 20:
    return Float8E5M2FNUZType::get(context);
  case 21:
    return unsignedInt(4);
  case 22:
    return signless(4);
  default:
    return Type();
  }
}

std::string dataTypeName(int32_t dataType) {
  switch (dataType) {
  case 17:
    return "float8e4m3fn";
  case 18:
    return "float8e4m3fnuz";
  case 19:
    return "float8e5m2";
  case 20:
    return "float8e5m2fnuz";
  case 21:
    return "uint4";
  case 22:
    return "int4";
  default:
    break;
  }
  if (onnx::TensorProto::DataType_IsValid(dataType))
    return llvm::StringRef(
               onnx::TensorProto::DataType_Name(
                   static_cast<onnx::TensorProto::DataType>(dataType)))
        .lower();
  return "unknown data type " + std::to_string(dataType);
}

FailureOr<int64_t> checkedElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return failure();
    if (dim != 0 && count > INT64_MAX / dim)
      return failure();
    count *= dim;
  }
  return count;
}

namespace {

/// Bytes a raw_data buffer of `count` elements of `type` occupies.
std::optional<int64_t> rawByteSize(Type type, int64_t count) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 4)
    return count / 2 + count % 2;
  int64_t bytes = std::max<unsigned>(width, 8) / 8;
  if (count > INT64_MAX / bytes)
    return std::nullopt;
  return count * bytes;
}

/// Reads the external bytes of `tensor` into `bytes`, refusing any location
/// that leaves the model's folder.
LogicalResult readExternalData(Location loc, const onnx::TensorProto &tensor,
                               const ExternalDataPolicy &policy,
                               int64_t expectedBytes, std::string &bytes) {
  std::string location;
  int64_t offset = 0;
  std::optional<int64_t> length;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    llvm::StringRef value = entry.value();
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      int64_t number;
      if (value.empty() || !llvm::all_of(value, llvm::isDigit) ||
          value.getAsInteger(10, number))
        return emitError(loc) << "external data " << entry.key() << " '"
                              << value << "' of tensor '" << tensor.name()
                              << "' is not a non-negative integer";
      if (entry.key() == "offset")
        offset = number;
      else
        length = number;
    }
  }
  if (policy.modelDir.empty())
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has external data, but the model was not read "
                             "from a file";
  if (location.empty())
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has external data without a location";
  llvm::StringRef path(location);
  if (path.contains('\0') || llvm::sys::path::is_absolute(path) ||
      path.starts_with("/") || path.starts_with("\\"))
    return emitError(loc) << "external data location '" << location
                          << "' of tensor '" << tensor.name()
                          << "' is not a relative path inside the model's "
                             "folder";
  for (auto it = llvm::sys::path::begin(path), end = llvm::sys::path::end(path);
       it != end; ++it)
    if (*it == "..")
      return emitError(loc)
             << "external data location '" << location << "' of tensor '"
             << tensor.name() << "' leaves the model's folder";

  llvm::SmallString<256> joined(policy.modelDir);
  llvm::sys::path::append(joined, path);
  char resolvedDir[PATH_MAX], resolvedFile[PATH_MAX];
  if (!realpath(policy.modelDir.c_str(), resolvedDir))
    return emitError(loc) << "cannot resolve the model's folder '"
                          << policy.modelDir << "': " << std::strerror(errno);
  if (!realpath(joined.c_str(), resolvedFile))
    return emitError(loc) << "cannot open external data '" << location
                          << "' of tensor '" << tensor.name()
                          << "': " << std::strerror(errno);
  llvm::StringRef dir(resolvedDir), file(resolvedFile);
  if (!file.starts_with(dir) || file.size() <= dir.size() ||
      file[dir.size()] != '/')
    return emitError(loc) << "external data location '" << location
                          << "' of tensor '" << tensor.name()
                          << "' resolves outside the model's folder";

  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer; it opens at once and is refused below as not a regular file.
  int fd = open(resolvedFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return emitError(loc) << "cannot open external data '" << location
                          << "': " << std::strerror(errno);
  auto closeFile = llvm::make_scope_exit([&] { close(fd); });
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
    return emitError(loc) << "external data '" << location
                          << "' is not a regular file";
  if (info.st_nlink > 1)
    return emitError(loc) << "external data '" << location
                          << "' has several hard links; aicc reads only files "
                             "that live in the model's folder alone";
  int64_t fileSize = info.st_size;
  if (offset > fileSize)
    return emitError(loc) << "external data offset " << offset << " of tensor '"
                          << tensor.name() << "' is past the end of '"
                          << location << "' (" << fileSize << " bytes)";
  int64_t available = fileSize - offset;
  int64_t size = length.value_or(available);
  if (size > available)
    return emitError(loc) << "external data of tensor '" << tensor.name()
                          << "' (" << size << " bytes at offset " << offset
                          << ") runs past the end of '" << location << "' ("
                          << fileSize << " bytes)";
  if (size != expectedBytes)
    return emitError(loc) << "external data of tensor '" << tensor.name()
                          << "' has " << size << " bytes but its shape needs "
                          << expectedBytes;
  bytes.resize(size);
  int64_t done = 0;
  while (done < size) {
    ssize_t got = pread(fd, bytes.data() + done, size - done, offset + done);
    if (got <= 0)
      return emitError(loc)
             << "cannot read external data '" << location << "': "
             << (got < 0 ? std::strerror(errno) : "unexpected end of file");
    done += got;
  }
  return success();
}

/// Appends the little-endian bytes of `value` to `out`.
template <typename T> void appendBytes(std::string &out, T value) {
  char buffer[sizeof(T)];
  std::memcpy(buffer, &value, sizeof(T));
  out.append(buffer, sizeof(T));
}

/// Re-packs the typed fields of `tensor` into the raw little-endian layout of
/// raw_data, so that one path builds every attribute.
LogicalResult typedFieldsToRaw(Location loc, const onnx::TensorProto &tensor,
                               Type type, int64_t count, std::string &raw) {
  auto mismatch = [&](int64_t have) {
    return emitError(loc) << "tensor '" << tensor.name() << "' holds " << have
                          << " values but its shape has " << count
                          << " elements";
  };
  unsigned width = type.getIntOrFloatBitWidth();
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    if (tensor.float_data_size() != count)
      return mismatch(tensor.float_data_size());
    for (float value : tensor.float_data())
      appendBytes(raw, value);
    return success();
  case onnx::TensorProto::DOUBLE:
    if (tensor.double_data_size() != count)
      return mismatch(tensor.double_data_size());
    for (double value : tensor.double_data())
      appendBytes(raw, value);
    return success();
  case onnx::TensorProto::INT64:
    if (tensor.int64_data_size() != count)
      return mismatch(tensor.int64_data_size());
    for (int64_t value : tensor.int64_data())
      appendBytes(raw, value);
    return success();
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    if (tensor.uint64_data_size() != count)
      return mismatch(tensor.uint64_data_size());
    for (uint64_t value : tensor.uint64_data()) {
      if (width == 32)
        appendBytes(raw, static_cast<uint32_t>(value));
      else
        appendBytes(raw, value);
    }
    return success();
  default:
    break;
  }
  // Everything else travels in int32_data: 4-bit types two to a value, the
  // others one value (or its bit pattern, for 16- and 8-bit floats) each.
  if (width == 4) {
    if (tensor.int32_data_size() != count / 2 + count % 2)
      return mismatch(tensor.int32_data_size() * 2);
    for (int32_t value : tensor.int32_data())
      raw.push_back(static_cast<char>(value & 0xff));
    return success();
  }
  if (tensor.int32_data_size() != count)
    return mismatch(tensor.int32_data_size());
  for (int32_t value : tensor.int32_data()) {
    if (width <= 8)
      raw.push_back(static_cast<char>(value & 0xff));
    else if (width == 16)
      appendBytes(raw, static_cast<uint16_t>(value));
    else
      appendBytes(raw, value);
  }
  return success();
}

/// A name usable as a resource blob key.
std::string blobName(const onnx::TensorProto &tensor) {
  std::string name = tensor.name().empty() ? "tensor" : tensor.name();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_' && c != '.')
      c = '_';
  return name;
}

} // namespace

FailureOr<ElementsAttr> convertTensor(MLIRContext *context, Location loc,
                                      const onnx::TensorProto &tensor,
                                      const ExternalDataPolicy &policy,
                                      bool asResource) {
  Type element = convertElementType(context, tensor.data_type());
  if (!element)
    return emitError(loc) << "tensor '" << tensor.name() << "' has type "
                          << dataTypeName(tensor.data_type())
                          << ", which aicc does not support";
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  FailureOr<int64_t> count = checkedElementCount(shape);
  if (failed(count))
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' has a negative dimension or more elements "
                             "than fit in 64 bits";
  std::optional<int64_t> bytes = rawByteSize(element, *count);
  if (!bytes)
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' is too large to address";
  auto type = RankedTensorType::get(shape, element);

  std::string raw;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    if (failed(readExternalData(loc, tensor, policy, *bytes, raw)))
      return failure();
  } else if (tensor.has_raw_data()) {
    if (static_cast<int64_t>(tensor.raw_data().size()) != *bytes)
      return emitError(loc) << "tensor '" << tensor.name() << "' has "
                            << tensor.raw_data().size()
                            << " bytes of data but its shape needs " << *bytes;
    raw = tensor.raw_data();
  } else if (failed(typedFieldsToRaw(loc, tensor, element, *count, raw))) {
    return failure();
  }

  unsigned width = element.getIntOrFloatBitWidth();
  if (width == 1) {
    SmallVector<bool> values(raw.begin(), raw.end());
    return ElementsAttr(DenseElementsAttr::get(type, ArrayRef<bool>(values)));
  }
  if (width == 4) {
    // Unpack nibbles, low first; int4 is sign-extended.
    bool isSigned = !element.isUnsignedInteger();
    SmallVector<APInt> values;
    for (int64_t i = 0; i < *count; ++i) {
      uint8_t byte = static_cast<uint8_t>(raw[i / 2]);
      uint8_t nibble = i % 2 ? byte >> 4 : byte & 0xf;
      values.push_back(APInt(4, nibble, isSigned));
    }
    return ElementsAttr(DenseElementsAttr::get(type, values));
  }
  if (asResource && *count > 0) {
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(raw.data(), raw.size()), alignof(uint64_t));
    return ElementsAttr(DenseResourceElementsAttr::get(type, blobName(tensor),
                                                       std::move(blob)));
  }
  return ElementsAttr(DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(raw.data(), raw.size())));
}

} // namespace aicc::onnx_importer
