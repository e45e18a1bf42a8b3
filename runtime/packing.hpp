// Whole-buffer packing and unpacking of `count` elements of a datatype
// layout, for MPI_Pack/MPI_Unpack, the collectives and the packed
// point-to-point path. A contiguous layout folds into one memcpy.
#pragma once

#include <cstdint>

#include "datatype/copy.hpp"
#include "datatype/type.hpp"

namespace shmpi::runtime {

// Packs `count` elements at `buf` into `out` (count * size bytes).
inline void pack_elements(const datatype::Type& layout, std::uint64_t count, const void* buf, void* out) {
  datatype::Cursor cursor(layout.program(), count, layout.extent());
  datatype::pack(cursor, buf, out, cursor.total());
}

// Unpacks the first `bytes` bytes of a packed stream at `in` into `count`
// elements at `buf` (a short stream fills the first elements only).
inline void unpack_elements(const datatype::Type& layout, std::uint64_t count, const void* in, std::uint64_t bytes,
                            void* buf) {
  datatype::Cursor cursor(layout.program(), count, layout.extent());
  datatype::unpack(cursor, in, buf, bytes);
}

}  // namespace shmpi::runtime
