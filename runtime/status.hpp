// Conversions between the pml's Status and MPI_Status.
#pragma once

#include <cstdint>

#include "mpi.h"
#include "pml/request.hpp"

namespace shmpi::runtime {

// 31 low bits and 32 high ones: any count up to 2^63 - 1 (MPI_Count), the
// high word kept unsigned so that the top bits survive the round trip.
inline void set_status_bytes(MPI_Status& s, std::uint64_t bytes) noexcept {
  s.shmpi_count_lo = static_cast<int>(bytes & 0x7fffffffu);
  s.shmpi_count_hi = static_cast<int>(static_cast<std::uint32_t>(bytes >> 31));
}

inline std::uint64_t status_bytes(const MPI_Status& s) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.shmpi_count_hi)) << 31) |
         static_cast<std::uint64_t>(s.shmpi_count_lo);
}

// A status from a single completion (MPI_Recv, MPI_Wait, MPI_Probe...):
// MPI_ERROR is left as it was. MPI-4.1 3.2.5: only the calls that complete
// several requests may write it; the error is the call's return value.
inline void fill_status(MPI_Status* s, const pml::Status& from) noexcept {
  if (s == MPI_STATUS_IGNORE) return;
  s->MPI_SOURCE = from.source;
  s->MPI_TAG = from.tag;
  s->shmpi_cancelled = 0;
  set_status_bytes(*s, from.bytes);
}

// The status of a receive or probe from MPI_PROC_NULL (MPI_ERROR left as
// fill_status leaves it; MPICH's mt_mprobe tests check that too).
inline void fill_null_status(MPI_Status* s) noexcept {
  if (s == MPI_STATUS_IGNORE) return;
  s->MPI_SOURCE = MPI_PROC_NULL;
  s->MPI_TAG = MPI_ANY_TAG;
  s->shmpi_cancelled = 0;
  set_status_bytes(*s, 0);
}

}  // namespace shmpi::runtime
