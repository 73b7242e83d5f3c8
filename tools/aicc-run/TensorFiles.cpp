//===- TensorFiles.cpp - .npy and ONNX TensorProto files ------------------===//

#include "TensorFiles.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace aicc::run;

namespace {
bool readFile(const std::string &path, std::string &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  bytes = buffer.str();
  return !in.bad();
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

uint64_t elementCount(const std::vector<int64_t> &dims) {
  uint64_t n = 1;
  for (int64_t d : dims)
    n *= static_cast<uint64_t>(d);
  return n;
}

//===-- .npy
//---------------------------------------------------------------===//

struct NpyType {
  aicc_dtype dtype;
  const char *descr;
};
const NpyType kNpyTypes[] = {
    {AICC_DTYPE_FLOAT32, "<f4"},
    {AICC_DTYPE_FLOAT64, "<f8"},
    {AICC_DTYPE_FLOAT16, "<f2"},
    {AICC_DTYPE_INT8, "|i1"},
    {AICC_DTYPE_UINT8, "|u1"},
    {AICC_DTYPE_INT16, "<i2"},
    {AICC_DTYPE_UINT16, "<u2"},
    {AICC_DTYPE_INT32, "<i4"},
    {AICC_DTYPE_UINT32, "<u4"},
    {AICC_DTYPE_INT64, "<i8"},
    {AICC_DTYPE_UINT64, "<u8"},
    {AICC_DTYPE_BOOL, "|b1"},
    // numpy has no bfloat16: its bits travel as uint16.
    {AICC_DTYPE_BFLOAT16, "<u2"},
    // Nor float8: its bytes travel as uint8.
    {AICC_DTYPE_FLOAT8E4M3FN, "|u1"},
    {AICC_DTYPE_FLOAT8E4M3FNUZ, "|u1"},
    {AICC_DTYPE_FLOAT8E5M2, "|u1"},
    {AICC_DTYPE_FLOAT8E5M2FNUZ, "|u1"},
};

/// The value of `key` in a numpy header dict, as raw text.
bool headerValue(const std::string &header, const std::string &key,
                 std::string &value) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return false;
  at = header.find(':', at);
  if (at == std::string::npos)
    return false;
  ++at;
  while (at < header.size() && header[at] == ' ')
    ++at;
  size_t end = at;
  if (at < header.size() && header[at] == '(') {
    end = header.find(')', at);
    if (end == std::string::npos)
      return false;
    ++end;
  } else if (at < header.size() && header[at] == '\'') {
    end = header.find('\'', at + 1);
    if (end == std::string::npos)
      return false;
    ++end;
  } else {
    while (end < header.size() && header[end] != ',' && header[end] != '}')
      ++end;
  }
  value = header.substr(at, end - at);
  return true;
}

std::string readNpy(const std::string &bytes, HostTensor &tensor) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return "not a .npy file";
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | uint16_t(uint8_t(bytes[9])) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return "truncated .npy header";
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return "unsupported .npy version " + std::to_string(major);
  }
  if (headerStart + headerLength > bytes.size())
    return "truncated .npy header";
  std::string header = bytes.substr(headerStart, headerLength);
  std::string descr, order, shape;
  if (!headerValue(header, "descr", descr) ||
      !headerValue(header, "fortran_order", order) ||
      !headerValue(header, "shape", shape))
    return "malformed .npy header";
  if (order.find("False") != 0)
    return "Fortran-ordered arrays are not supported";
  descr = descr.substr(1, descr.size() - 2);
  if (!descr.empty() && descr[0] == '=')
    descr[0] = '<';
  if (descr == "<b1" || descr == "?")
    descr = "|b1";
  if (descr == "<i1")
    descr = "|i1";
  if (descr == "<u1")
    descr = "|u1";
  bool known = false;
  for (const NpyType &t : kNpyTypes)
    if (descr == t.descr && t.dtype != AICC_DTYPE_BFLOAT16) {
      tensor.dtype = t.dtype;
      known = true;
      break;
    }
  if (!known)
    return "unsupported .npy element type '" + descr + "'";
  tensor.dims.clear();
  std::string digits;
  for (char c : shape) {
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (!digits.empty()) {
      tensor.dims.push_back(std::stoll(digits));
      digits.clear();
    }
  }
  size_t dataStart = headerStart + headerLength;
  uint64_t expected = elementCount(tensor.dims) * aicc_dtype_size(tensor.dtype);
  if (bytes.size() - dataStart != expected)
    return "the .npy data has " + std::to_string(bytes.size() - dataStart) +
           " bytes, its shape needs " + std::to_string(expected);
  tensor.data.assign(bytes.begin() + dataStart, bytes.end());
  return "";
}

//===-- TensorProto
//---------------------------------------------------------===//

class Wire {
public:
  Wire(const uint8_t *p, const uint8_t *end) : p(p), end(end) {}
  bool done() const { return p >= end; }
  bool varint(uint64_t &v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end)
        return false;
      uint8_t b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false;
  }
  bool fixed(void *out, size_t n) {
    if (size_t(end - p) < n)
      return false;
    std::memcpy(out, p, n);
    p += n;
    return true;
  }
  bool bytes(const uint8_t *&data, uint64_t &size) {
    if (!varint(size) || size > uint64_t(end - p))
      return false;
    data = p;
    p += size;
    return true;
  }
  bool skip(unsigned wireType) {
    uint64_t v;
    const uint8_t *d;
    switch (wireType) {
    case 0:
      return varint(v);
    case 1:
      return fixed(&v, 8);
    case 2:
      return bytes(d, v);
    case 5: {
      uint32_t w;
      return fixed(&w, 4);
    }
    default:
      return false;
    }
  }

private:
  const uint8_t *p, *end;
};

/// Appends the values of a repeated scalar field, packed or not.
template <typename Read>
bool repeated(Wire &wire, unsigned wireType, unsigned scalarWireType,
              Read read) {
  if (wireType == 2 && scalarWireType != 2) {
    const uint8_t *data;
    uint64_t size;
    if (!wire.bytes(data, size))
      return false;
    Wire packed(data, data + size);
    while (!packed.done())
      if (!read(packed))
        return false;
    return true;
  }
  return wireType == scalarWireType && read(wire);
}

std::string readTensorProto(const std::string &bytes, HostTensor &tensor) {
  const uint8_t *begin = reinterpret_cast<const uint8_t *>(bytes.data());
  Wire wire(begin, begin + bytes.size());
  int64_t dataType = 0;
  std::vector<int64_t> dims;
  std::vector<float> floats;
  std::vector<int64_t> ints; // int32_data and int64_data
  std::vector<double> doubles;
  std::vector<uint64_t> uints;
  const uint8_t *raw = nullptr;
  uint64_t rawSize = 0;
  bool hasRaw = false;
  while (!wire.done()) {
    uint64_t key;
    if (!wire.varint(key))
      return "malformed TensorProto";
    unsigned field = unsigned(key >> 3), type = unsigned(key & 7);
    bool ok = true;
    switch (field) {
    case 1:
      ok = repeated(wire, type, 0, [&](Wire &w) {
        uint64_t v;
        if (!w.varint(v))
          return false;
        dims.push_back(int64_t(v));
        return true;
      });
      break;
    case 2: {
      uint64_t v;
      ok = type == 0 && wire.varint(v);
      dataType = int64_t(v);
      break;
    }
    case 4:
      ok = repeated(wire, type, 5, [&](Wire &w) {
        float v;
        if (!w.fixed(&v, 4))
          return false;
        floats.push_back(v);
        return true;
      });
      break;
    case 5:
    case 7:
      ok = repeated(wire, type, 0, [&](Wire &w) {
        uint64_t v;
        if (!w.varint(v))
          return false;
        ints.push_back(field == 5 ? int64_t(int32_t(uint32_t(v))) : int64_t(v));
        return true;
      });
      break;
    case 9:
      ok = type == 2 && wire.bytes(raw, rawSize);
      hasRaw = true;
      break;
    case 10:
      ok = repeated(wire, type, 1, [&](Wire &w) {
        double v;
        if (!w.fixed(&v, 8))
          return false;
        doubles.push_back(v);
        return true;
      });
      break;
    case 11:
      ok = repeated(wire, type, 0, [&](Wire &w) {
        uint64_t v;
        if (!w.varint(v))
          return false;
        uints.push_back(v);
        return true;
      });
      break;
    case 13:
      return "tensors with external data are not supported";
    case 6:
      return "string tensors are not supported";
    default:
      ok = wire.skip(type);
    }
    if (!ok)
      return "malformed TensorProto";
  }
  // Only codes within aicc_dtype's range become one (any other conversion
  // would be undefined); the unknown ones among them have size 0.
  if (dataType <= 0 || dataType >= 32)
    return "unsupported TensorProto data type " + std::to_string(dataType);
  tensor.dtype = static_cast<aicc_dtype>(dataType);
  size_t elementSize = aicc_dtype_size(tensor.dtype);
  if (elementSize == 0)
    return "unsupported TensorProto data type " + std::to_string(dataType);
  for (int64_t d : dims)
    if (d < 0)
      return "negative dimension in TensorProto";
  tensor.dims = dims;
  uint64_t count = elementCount(dims);
  tensor.data.assign(count * elementSize, 0);
  uint8_t *out = tensor.data.data();
  if (hasRaw) {
    if (rawSize != tensor.data.size())
      return "TensorProto raw data has " + std::to_string(rawSize) +
             " bytes, its shape needs " + std::to_string(tensor.data.size());
    std::memcpy(out, raw, rawSize);
    return "";
  }
  auto mismatch = [&](size_t have) {
    return "TensorProto has " + std::to_string(have) + " values for " +
           std::to_string(count) + " elements";
  };
  switch (tensor.dtype) {
  case AICC_DTYPE_FLOAT32:
    if (floats.size() != count)
      return mismatch(floats.size());
    std::memcpy(out, floats.data(), count * 4);
    break;
  case AICC_DTYPE_FLOAT64:
    if (doubles.size() != count)
      return mismatch(doubles.size());
    std::memcpy(out, doubles.data(), count * 8);
    break;
  case AICC_DTYPE_UINT32:
  case AICC_DTYPE_UINT64:
    if (uints.size() != count)
      return mismatch(uints.size());
    for (uint64_t i = 0; i < count; ++i)
      std::memcpy(out + i * elementSize, &uints[i], elementSize);
    break;
  default:
    // int32_data carries the narrow types (and 16-bit float bits);
    // int64_data carries int64. Little-endian truncation does both.
    if (ints.size() != count)
      return mismatch(ints.size());
    for (uint64_t i = 0; i < count; ++i)
      std::memcpy(out + i * elementSize, &ints[i], elementSize);
  }
  return "";
}
} // namespace

std::string aicc::run::readTensorFile(const std::string &path,
                                      HostTensor &tensor) {
  std::string bytes;
  if (!readFile(path, bytes))
    return "cannot read '" + path + "'";
  std::string error = endsWith(path, ".npy") ? readNpy(bytes, tensor)
                                             : readTensorProto(bytes, tensor);
  return error.empty() ? "" : path + ": " + error;
}

std::string aicc::run::writeNpy(const std::string &path,
                                const HostTensor &tensor) {
  const char *descr = nullptr;
  for (const NpyType &t : kNpyTypes)
    if (t.dtype == tensor.dtype) {
      descr = t.descr;
      break;
    }
  if (!descr)
    return "no .npy type for " + std::string(aicc_dtype_name(tensor.dtype));
  std::string shape = "(";
  for (size_t i = 0; i < tensor.dims.size(); ++i)
    shape +=
        std::to_string(tensor.dims[i]) + (tensor.dims.size() == 1      ? ","
                                          : i + 1 < tensor.dims.size() ? ", "
                                                                       : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  // Written beside `path` and renamed onto it: a reader never sees half a
  // file, and a failed write leaves none.
  std::string temporary = path + ".XXXXXX";
  int fd = mkstemp(temporary.data());
  if (fd < 0)
    return "cannot write '" + path + "': " + std::strerror(errno);
  // mkstemp's 0600 would stay on the output: the usual 0666 less umask.
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  ::close(fd);
  bool written;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write("\x93NUMPY\x01\x00", 8);
    uint16_t length = static_cast<uint16_t>(header.size());
    char lengthBytes[2] = {char(length & 0xff), char(length >> 8)};
    out.write(lengthBytes, 2);
    out << header;
    out.write(reinterpret_cast<const char *>(tensor.data.data()),
              static_cast<std::streamsize>(tensor.data.size()));
    out.close();
    written = !out.fail();
  }
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    return "writing '" + path + "' failed";
  }
  return "";
}

std::string aicc::run::formatDims(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}
