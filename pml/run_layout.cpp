#include "pml/run_layout.hpp"

#include "datatype/copy.hpp"

namespace shmpi::pml {

void scatter_into(const RunLayout& layout, std::uint64_t capacity, std::uint64_t offset,
                  std::span<const std::byte> payload) noexcept {
  if (offset >= capacity || payload.empty()) return;
  datatype::Cursor cursor(*layout.program, layout.count, layout.extent);
  cursor.seek(offset);
  const std::uint64_t n = std::min<std::uint64_t>(payload.size(), capacity - offset);
  datatype::unpack(cursor, payload.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(layout.origin)), n);
}

void gather_from(const RunLayout& layout, std::uint64_t offset, std::byte* out, std::size_t bytes) noexcept {
  datatype::Cursor cursor(*layout.program, layout.count, layout.extent);
  cursor.seek(offset);
  datatype::pack(cursor, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(layout.origin)), out, bytes);
}

}  // namespace shmpi::pml
