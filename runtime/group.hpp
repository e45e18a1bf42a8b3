// Groups: ordered sets of processes, named by world rank, and the set
// operations of MPI_Group_* on them. Pure logic, no MPI state: results are
// values, errors come back as ArgError (the same shape the argument checks
// use), so the API layer only raises them.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "mpi.h"
#include "runtime/arg_checks.hpp"

namespace shmpi::runtime {

// Group rank -> world rank; no world rank appears twice.
using Group = std::vector<std::uint32_t>;

// Either a new group or why it cannot be made.
using GroupResult = std::variant<Group, ArgError>;

// The rank of world rank `world` in `group`, or MPI_UNDEFINED.
int rank_in(const Group& group, std::uint32_t world) noexcept;

// MPI_IDENT (same members, same order), MPI_SIMILAR (same members), MPI_UNEQUAL.
int compare_groups(const Group& a, const Group& b);

// Union: a's members in order, then b's members not in a, in b's order.
Group group_union(const Group& a, const Group& b);
// Members of a that are also in b (a's order); difference: those that are not.
Group group_intersection(const Group& a, const Group& b);
Group group_difference(const Group& a, const Group& b);

// MPI_Group_incl / excl: ranks must be valid and distinct.
GroupResult group_incl(const Group& group, const int* ranks, int n);
GroupResult group_excl(const Group& group, const int* ranks, int n);
// MPI_Group_range_incl / excl: triplets (first, last, stride); every rank
// they name must be valid and named once.
GroupResult group_range_incl(const Group& group, const int (*ranges)[3], int n);
GroupResult group_range_excl(const Group& group, const int (*ranges)[3], int n);

// MPI_Group_translate_ranks: each of ranks[0..n) in `from` as a rank of
// `to` (MPI_UNDEFINED if absent, MPI_PROC_NULL stays MPI_PROC_NULL).
// Nothing on success, the first invalid rank otherwise.
Check translate_ranks(const Group& from, const int* ranks, int n, const Group& to, int* out);

}  // namespace shmpi::runtime
