// MPI entry points: what a communicator carries besides its group: its
// name, its hints (info), and MPI_Comm_get_parent (shmpi starts no
// processes dynamically, so there is never a parent).
#include <cstring>
#include <new>

#include "runtime/api.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  constexpr const char* kCall = "MPI_Comm_set_name";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (comm_name == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null name");
  try {
    // Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters, as in MPICH.
    c->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  } catch (const std::bad_alloc&) {
    return raise_error(context, c, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  c->named = true;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  constexpr const char* kCall = "MPI_Comm_get_name";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (comm_name == nullptr || resultlen == nullptr)
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null comm_name or resultlen pointer");
  const std::string& name = c->named ? c->name : std::string();
  std::memcpy(comm_name, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}

// Hints replace the communicator's; shmpi acts on none of them but hands
// them back from MPI_Comm_get_info, as MPI allows.
extern "C" int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  constexpr const char* kCall = "MPI_Comm_set_info";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  const InfoStore* hints = context.objects().infos.find(info);
  if (hints == nullptr && info != MPI_INFO_NULL)
    return raise_error(context, c, kCall, MPI_ERR_INFO, "invalid info object " + std::to_string(info));
  try {
    c->hints = hints != nullptr ? *hints : InfoStore{};
  } catch (const std::bad_alloc&) {
    return raise_error(context, c, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  constexpr const char* kCall = "MPI_Comm_get_info";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (info_used == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null info_used pointer");
  try {
    *info_used = context.objects().infos.add(c->hints);
  } catch (const std::bad_alloc&) {
    return raise_error(context, c, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_parent(MPI_Comm* parent) {
  constexpr const char* kCall = "MPI_Comm_get_parent";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (parent == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null parent pointer");
  *parent = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Comm_set_name)
SHMPI_PMPI_ALIAS(Comm_get_name)
SHMPI_PMPI_ALIAS(Comm_set_info)
SHMPI_PMPI_ALIAS(Comm_get_info)
SHMPI_PMPI_ALIAS(Comm_get_parent)
