// A naive reference for the datatype engine: the type map of a type,
// expanded element by element from its blocks (never from its compiled
// program), and copies made one basic element at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "datatype/type.hpp"

namespace shmpi::datatype::testing {

struct Entry {
  Offset offset;
  std::uint32_t size;
};

inline void expand(const Type& type, std::uint64_t count, Offset origin, std::vector<Entry>& out) {
  for (std::uint64_t e = 0; e < count; ++e, origin += type.extent()) {
    if (const Basic* b = type.as_basic()) {
      out.push_back(Entry{origin, b->size});
      continue;
    }
    for (const Block& block : type.parts()) {
      if (block.blocklen <= 0 || !block.type) continue;
      for (std::int64_t r = 0; r < block.reps; ++r)
        expand(*block.type, static_cast<std::uint64_t>(block.blocklen), origin + block.disp + r * block.stride, out);
    }
  }
}

inline std::vector<Entry> type_map(const Type& type, std::uint64_t count) {
  std::vector<Entry> map;
  expand(type, count, 0, map);
  return map;
}

inline std::vector<std::byte> naive_pack(const std::vector<Entry>& map, const std::byte* origin) {
  std::vector<std::byte> out;
  for (const Entry& e : map) out.insert(out.end(), origin + e.offset, origin + e.offset + e.size);
  return out;
}

inline void naive_unpack(const std::vector<Entry>& map, const std::byte* in, std::byte* origin) {
  for (const Entry& e : map) {
    std::memcpy(origin + e.offset, in, e.size);
    in += e.size;
  }
}

// Memory spanned by `count` elements: [low, high) relative to the origin.
struct Span {
  Offset low = 0, high = 0;
};

inline Span span_of(const Type& type, std::uint64_t count) {
  if (type.size() == 0 || count == 0) return {};
  const Offset last = static_cast<Offset>(count - 1) * type.extent();
  return Span{type.true_lb() + (last < 0 ? last : 0), type.true_ub() + (last > 0 ? last : 0)};
}

}  // namespace shmpi::datatype::testing
