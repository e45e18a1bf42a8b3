// MPI's portable representation "external32" (MPI-4.1 19.3): every basic
// element big-endian, in a fixed size (MPI_LONG 4 bytes, MPI_WCHAR 2,
// MPI_LONG_DOUBLE 16 as IEEE binary128, ...), packed without gaps.
#pragma once

#include <cstdint>

#include "datatype/type.hpp"

namespace shmpi::datatype {

// Writes `count` elements of `type` at `origin` to `out`
// (count * type.external_size() bytes).
void pack_external(const Type& type, std::uint64_t count, const void* origin, void* out) noexcept;

// Reads `count` elements of `type` from `in` into `origin`.
void unpack_external(const Type& type, std::uint64_t count, const void* in, void* origin) noexcept;

}  // namespace shmpi::datatype
