#include "runtime/coll_packing.hpp"

#include <cstring>

#include "runtime/packing.hpp"

namespace shmpi::runtime {

void pack_block(const Blocks& user, std::size_t i, std::byte* to) {
  if (user.bytes[i] == 0) return;
  const std::byte* from = user.base + user.offset[i];
  if (user.contiguous(i))
    std::memcpy(to, from, user.bytes[i]);
  else
    pack_elements(*user.layouts[i], user.counts[i], from, to);
}

void unpack_block(const Blocks& user, std::size_t i, const std::byte* from) {
  if (user.bytes[i] == 0) return;
  std::byte* to = user.base + user.offset[i];
  if (user.contiguous(i))
    std::memcpy(to, from, user.bytes[i]);
  else
    unpack_elements(*user.layouts[i], user.counts[i], from, user.bytes[i], to);
}

}  // namespace shmpi::runtime

namespace shmpi::runtime::detail {
namespace {

// Scratch for `user`'s blocks packed one after another; `user` becomes them.
Blocks packed_blocks(Schedule& s, const Blocks& user) {
  Blocks packed;
  packed.bytes = user.bytes;
  packed.offset.resize(user.bytes.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < user.bytes.size(); ++i) {
    packed.offset[i] = total;
    total += user.bytes[i];
  }
  packed.base = s.scratch(total);
  return packed;
}

}  // namespace

const void* pack_input(Schedule& s, const void* buffer, const Typed& t) {
  std::byte* packed = s.scratch(t.bytes);
  if (t.count != 0) pack_elements(*t.layout, t.count, buffer, packed);
  return packed;
}

void* unpack_output(Schedule& s, void* buffer, const Typed& t) {
  std::byte* packed = s.scratch(t.bytes);
  s.unpack_at_end(t.layout, t.count, packed, buffer);
  return packed;
}

void* pack_inout(Schedule& s, void* buffer, const Typed& t) {
  void* packed = unpack_output(s, buffer, t);
  if (t.count != 0) pack_elements(*t.layout, t.count, buffer, packed);
  return packed;
}

void pack_blocks(Schedule& s, Blocks& b) {
  Blocks packed = packed_blocks(s, b);
  for (std::size_t i = 0; i < b.bytes.size(); ++i) pack_block(b, i, packed.base + packed.offset[i]);
  b = std::move(packed);
}

void unpack_blocks(Schedule& s, Blocks& b, std::int32_t in_block) {
  Blocks packed = packed_blocks(s, b);
  if (in_block >= 0) {
    const auto i = static_cast<std::size_t>(in_block);
    pack_block(b, i, packed.base + packed.offset[i]);
  }
  for (std::size_t i = 0; i < b.bytes.size(); ++i) {
    std::byte* from = packed.base + packed.offset[i];
    if (b.layouts[i] != nullptr)
      s.unpack_at_end(b.layouts[i], b.counts[i], from, b.base + b.offset[i]);
    else
      s.copy_at_end(from, b.base + b.offset[i], b.bytes[i]);
  }
  b = std::move(packed);
}

}  // namespace shmpi::runtime::detail
