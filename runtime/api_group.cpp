// MPI entry points: groups (set logic in runtime/group.cpp). A group is a
// value: every call that makes one stores a new Group under a new handle,
// except that every empty result is MPI_GROUP_EMPTY.
#include <new>
#include <variant>

#include "runtime/api.hpp"
#include "runtime/group.hpp"

using namespace shmpi::runtime;

namespace {

// The group behind `handle`, or nullptr after raising MPI_ERR_GROUP.
const Group* group_or_raise(Context& context, const char* call, MPI_Group handle, int& rc) {
  const Group* g = context.objects().groups.find(handle);
  if (g == nullptr)
    rc = raise_error(context, nullptr, call, MPI_ERR_GROUP, "invalid group " + std::to_string(handle));
  return g;
}

int null_out(Context& context, const char* call, const char* what) {
  return raise_error(context, nullptr, call, MPI_ERR_ARG, std::string("null ") + what + " pointer");
}

// Stores `result` in *newgroup, or raises its error.
int store(Context& context, const char* call, GroupResult result, MPI_Group* newgroup) {
  if (auto* error = std::get_if<ArgError>(&result)) return raise_error(context, nullptr, call, error->error_class,
                                                                      error->reason);
  try {
    *newgroup = context.objects().groups.add(std::move(std::get<Group>(result)));
  } catch (const std::bad_alloc&) {
    return raise_error(context, nullptr, call, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

// The two-group set operations share their checks.
template <class Op>
int combine(const char* call, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup, Op op) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Group* a = group_or_raise(context, call, group1, rc);
  if (a == nullptr) return rc;
  const Group* b = group_or_raise(context, call, group2, rc);
  if (b == nullptr) return rc;
  if (newgroup == nullptr) return null_out(context, call, "newgroup");
  return store(context, call, op(*a, *b), newgroup);
}

// One group and a list of ranks or ranges.
template <class Op>
int select(const char* call, MPI_Group group, MPI_Group* newgroup, Op op) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Group* g = group_or_raise(context, call, group, rc);
  if (g == nullptr) return rc;
  if (newgroup == nullptr) return null_out(context, call, "newgroup");
  return store(context, call, op(*g), newgroup);
}

}  // namespace

extern "C" int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  constexpr const char* kCall = "MPI_Comm_group";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (group == nullptr) return null_out(context, kCall, "group");
  return store(context, kCall, c->group(), group);
}

extern "C" int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  constexpr const char* kCall = "MPI_Comm_remote_group";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (!c->inter) return raise_error(context, c, kCall, MPI_ERR_COMM, c->name + " is not an intercommunicator");
  if (group == nullptr) return null_out(context, kCall, "group");
  return store(context, kCall, c->world_ranks, group);
}

extern "C" int PMPI_Group_size(MPI_Group group, int* size) {
  constexpr const char* kCall = "MPI_Group_size";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Group* g = group_or_raise(context, kCall, group, rc);
  if (g == nullptr) return rc;
  if (size == nullptr) return null_out(context, kCall, "size");
  *size = static_cast<int>(g->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_rank(MPI_Group group, int* rank) {
  constexpr const char* kCall = "MPI_Group_rank";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Group* g = group_or_raise(context, kCall, group, rc);
  if (g == nullptr) return rc;
  if (rank == nullptr) return null_out(context, kCall, "rank");
  *rank = rank_in(*g, context.rank());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                          int ranks2[]) {
  constexpr const char* kCall = "MPI_Group_translate_ranks";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Group* a = group_or_raise(context, kCall, group1, rc);
  if (a == nullptr) return rc;
  const Group* b = group_or_raise(context, kCall, group2, rc);
  if (b == nullptr) return rc;
  return raise_if(context, nullptr, kCall, translate_ranks(*a, ranks1, n, *b, ranks2));
}

extern "C" int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  constexpr const char* kCall = "MPI_Group_compare";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Group* a = group_or_raise(context, kCall, group1, rc);
  if (a == nullptr) return rc;
  const Group* b = group_or_raise(context, kCall, group2, rc);
  if (b == nullptr) return rc;
  if (result == nullptr) return null_out(context, kCall, "result");
  *result = compare_groups(*a, *b);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine("MPI_Group_union", group1, group2, newgroup, group_union);
}

extern "C" int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine("MPI_Group_intersection", group1, group2, newgroup, group_intersection);
}

extern "C" int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine("MPI_Group_difference", group1, group2, newgroup, group_difference);
}

extern "C" int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return select("MPI_Group_incl", group, newgroup, [&](const Group& g) { return group_incl(g, ranks, n); });
}

extern "C" int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return select("MPI_Group_excl", group, newgroup, [&](const Group& g) { return group_excl(g, ranks, n); });
}

extern "C" int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return select("MPI_Group_range_incl", group, newgroup,
                [&](const Group& g) { return group_range_incl(g, ranges, n); });
}

extern "C" int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return select("MPI_Group_range_excl", group, newgroup,
                [&](const Group& g) { return group_range_excl(g, ranges, n); });
}

extern "C" int PMPI_Group_free(MPI_Group* group) {
  constexpr const char* kCall = "MPI_Group_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (group == nullptr) return null_out(context, kCall, "group");
  if (!context.objects().groups.free(*group))
    return raise_error(context, nullptr, kCall, MPI_ERR_GROUP, "invalid group " + std::to_string(*group));
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Comm_group)
SHMPI_PMPI_ALIAS(Comm_remote_group)
SHMPI_PMPI_ALIAS(Group_size)
SHMPI_PMPI_ALIAS(Group_rank)
SHMPI_PMPI_ALIAS(Group_translate_ranks)
SHMPI_PMPI_ALIAS(Group_compare)
SHMPI_PMPI_ALIAS(Group_union)
SHMPI_PMPI_ALIAS(Group_intersection)
SHMPI_PMPI_ALIAS(Group_difference)
SHMPI_PMPI_ALIAS(Group_incl)
SHMPI_PMPI_ALIAS(Group_excl)
SHMPI_PMPI_ALIAS(Group_range_incl)
SHMPI_PMPI_ALIAS(Group_range_excl)
SHMPI_PMPI_ALIAS(Group_free)
