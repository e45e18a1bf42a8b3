#include "runtime/comm_dup.hpp"

#include <new>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm.hpp"

namespace shmpi::runtime {

int duplicate(Context& context, const char* call, MPI_Comm comm, const InfoStore* hints, MPI_Comm* newcomm) {
  try {
    Communicator dup = *context.communicator(comm);
    dup.name.clear();
    dup.attributes.clear();
    if (hints != nullptr) dup.hints = *hints;
    if (dup.inter) {
      dup.context = agree_inter_context(context, dup, call);
    } else {
      // Not reduced in dup.context itself: the allreduce runs on dup's context.
      std::uint32_t id = context.communicators().next_context();
      allreduce(context, dup, &id, Reduction{MPI_MAX, MPI_UINT32_T, 1, sizeof id}, call);
      dup.context = id;
    }
    if (int rc = copy_comm_attributes(context, comm, dup); rc != MPI_SUCCESS) {
      context.communicators().reserve_context(dup.context);  // the others may have added theirs
      return raise_error(context, context.communicator(comm), call, rc,
                         "an attribute copy callback returned error " + std::to_string(rc));
    }
    *newcomm = context.communicators().add(std::move(dup));
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), call, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
