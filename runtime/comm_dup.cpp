#include "runtime/comm_dup.hpp"

#include <new>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/context_agreement.hpp"
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
      // Agreed over dup while it still has the parent's context.
      dup.context = agree_over(context, dup, kIntraContexts, call);
    }
    if (int rc = copy_comm_attributes(context, comm, dup); rc != MPI_SUCCESS) {
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
