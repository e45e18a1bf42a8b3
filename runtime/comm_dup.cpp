#include "runtime/comm_dup.hpp"

#include <new>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm.hpp"

namespace shmpi::runtime {
namespace {

// The context id of `dup`, a new intracommunicator (still a copy of its
// parent, whose internal context runs the agreement): the largest
// next_context() of its members. Under MPI_THREAD_MULTIPLE other threads
// may pick ids while we agree, so each rank claims its proposal first and
// the agreed id is taken only if no other thread of any member claimed it
// meanwhile; else all try again with fresh ids (the claimed ones are lost,
// harmlessly: ids are 32 bits and never reused).
std::uint32_t agree_context(Context& context, Communicator& dup, const char* call) {
  CommunicatorTable& table = context.communicators();
  for (;;) {
    const std::uint32_t mine = table.next_context();
    table.reserve_context(mine);
    std::uint32_t id = mine;
    allreduce(context, dup, &id, Reduction{MPI_MAX, MPI_UINT32_T, 1, sizeof id}, call);
    if (!threads_share_rank()) return id;
    std::uint32_t free_here = id == mine || id >= table.next_context() ? 1 : 0;
    if (free_here != 0) table.reserve_context(id);
    allreduce(context, dup, &free_here, Reduction{MPI_MIN, MPI_UINT32_T, 1, sizeof free_here}, call);
    if (free_here != 0) return id;
  }
}

}  // namespace

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
      dup.context = agree_context(context, dup, call);
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
