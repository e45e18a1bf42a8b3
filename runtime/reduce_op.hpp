// Reduction kernels: the predefined MPI_Op handles applied to the
// predefined datatypes, for MPI_Reduce and MPI_Allreduce.
//
// Which op applies to which type follows MPI-3.1 §5.9.2 ("Op / Allowed
// Types") with two documented extensions:
//   - MPI_CHAR is accepted wherever a C integer is, as MPICH does (its
//     "C_INTEGER_EXTRA" group). The standard's C integer group lists only
//     MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR; MPI_CHAR is a printable character.
//   - MPI_REPLACE (§11.3.4, one-sided) applies to every predefined type and
//     copies `in` over `inout`; MPI_NO_OP (one-sided too) leaves `inout`.
// MPI_MAXLOC / MPI_MINLOC apply only to the pair types of §5.9.4.
//
// Result conventions:
//   - Signed integer SUM and PROD wrap modulo 2^bits (the arithmetic is done
//     in the unsigned counterpart, so there is no undefined behaviour).
//   - LAND / LOR / LXOR yield 0 or 1 in the element's own type; MPI_C_BOOL
//     bytes are read as "nonzero is true", so a C caller's 0xFF is accepted.
//   - MAXLOC / MINLOC break value ties by taking the smaller index.
//   - NaN handling for floating MAX / MIN is unspecified (as in MPI).
#pragma once

#include <cstddef>

#include "mpi.h"

namespace shmpi::runtime {

// Whether `op` may be applied to `type` (MPI-3.1 §5.9.2); false means the
// caller should raise MPI_ERR_OP. False for any handle that is not a
// predefined op or a predefined datatype.
bool op_applies(MPI_Op op, MPI_Datatype type) noexcept;

// The name of a predefined op ("MPI_SUM"), or nullptr if `op` is not one.
const char* op_name(MPI_Op op) noexcept;

// How operands hold a padded pair type (MPI_DOUBLE_INT, MPI_LONG_INT,
// MPI_SHORT_INT, MPI_LONG_DOUBLE_INT): as the C struct a program declares,
// or packed (value, then index, no padding), as the elements of a derived
// type of pairs travel. Every other type looks the same either way.
enum class PairLayout : unsigned char { CStruct, Packed };

// inout[i] = in[i] op inout[i] for i < count: the op's result replaces
// `inout`, in MPI's operand order (for MPI_REPLACE the result is in[i]).
//
// Precondition: op_applies(op, type). Violating it is a no-op in release
// builds and an assertion failure in debug builds.
//
// `in` and `inout` are either the same buffer or do not overlap. Neither
// needs to be aligned for the element type: aligned buffers take the
// vectorised path, misaligned ones an element-by-element memcpy path.
// Allocation-free and lock-free; safe to call concurrently on distinct
// buffers.
void apply_op(MPI_Op op, MPI_Datatype type, const void* in, void* inout, std::size_t count,
              PairLayout pairs = PairLayout::CStruct) noexcept;

}  // namespace shmpi::runtime
