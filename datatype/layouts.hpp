// Types describing part of an n-dimensional array (MPI_Type_create_subarray
// and MPI_Type_create_darray), built from hvectors and resized types. The
// arguments are assumed valid (the MPI layer checks them and says why not).
#pragma once

#include <cstdint>
#include <span>

#include "datatype/type.hpp"

namespace shmpi::datatype {

enum class Order { C, Fortran };  // which index runs fastest: the last (C) or the first
enum class Distribution { Block, Cyclic, None };
inline constexpr std::int64_t kDefaultDistributionArg = -1;

// The subarray of `subsizes` elements starting at `starts` within an array
// of `sizes` elements of `old`; lb 0, extent the whole array.
TypeRef make_subarray(std::span<const std::int64_t> sizes, std::span<const std::int64_t> subsizes,
                      std::span<const std::int64_t> starts, Order order, const TypeRef& old);

// The part of a `gsizes` array that process `rank` of a `psizes` grid
// (ranks in row-major order) holds under the given distribution of each
// dimension; lb 0, extent the whole array.
TypeRef make_darray(std::int64_t rank, std::span<const std::int64_t> gsizes,
                    std::span<const Distribution> distribs, std::span<const std::int64_t> dargs,
                    std::span<const std::int64_t> psizes, Order order, const TypeRef& old);

}  // namespace shmpi::datatype
