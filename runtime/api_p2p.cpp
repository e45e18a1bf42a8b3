// MPI entry points: blocking point-to-point.
#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/status.hpp"

using namespace shmpi::runtime;
using shmpi::pml::Completion;
using shmpi::pml::Envelope;
using shmpi::pml::Request;

namespace {

std::string truncation_reason(const Communicator& comm, const shmpi::pml::Status& s, std::size_t capacity) {
  return "message from rank " + std::to_string(s.source) + ", tag " + std::to_string(s.tag) + " on " +
         comm.name + " truncated: " + std::to_string(s.sent_bytes) + " bytes sent, buffer holds " +
         std::to_string(capacity);
}

}  // namespace

extern "C" int PMPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Send";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  std::size_t element = 0;
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_count(count), check_datatype(context.datatypes(), datatype, element),
                                     check_buffer(buf, count), check_send_tag(tag), check_dest(dest, *c)})))
    return rc;
  if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
  const std::size_t bytes = element * static_cast<std::size_t>(count);
  Request request;
  const std::uint32_t to = c->world_rank(dest);
  context.pml().start_send(request, to, Envelope{c->context, c->rank, tag}, buf, bytes);
  context.wait(request, BlockedCall{kCall, static_cast<std::int32_t>(to), tag, bytes, c->context});
  return MPI_SUCCESS;
}

extern "C" int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                         MPI_Status* status) {
  constexpr const char* kCall = "MPI_Recv";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  std::size_t element = 0;
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_count(count), check_datatype(context.datatypes(), datatype, element),
                                     check_buffer(buf, count), check_recv_tag(tag), check_source(source, *c)})))
    return rc;
  if (source == MPI_PROC_NULL) {
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  const std::size_t capacity = element * static_cast<std::size_t>(count);
  Request request;
  context.pml().start_recv(request, Envelope{c->context, source, tag}, buf, capacity);
  const std::int32_t from = source == MPI_ANY_SOURCE ? -1 : static_cast<std::int32_t>(c->world_rank(source));
  context.wait(request, BlockedCall{kCall, from, tag, capacity, c->context});
  if (request.status.result == Completion::Truncated) {
    fill_status(status, request.status, MPI_ERR_TRUNCATE);
    return raise_error(context, c, kCall, MPI_ERR_TRUNCATE, truncation_reason(*c, request.status, capacity));
  }
  fill_status(status, request.status, MPI_SUCCESS);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  constexpr const char* kCall = "MPI_Get_count";
  Context& context = context_for(kCall);
  std::size_t element = 0;
  if (int rc = raise_if(context, nullptr, kCall, check_datatype(context.datatypes(), datatype, element))) return rc;
  if (status == nullptr || count == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null status or count pointer");
  const std::uint64_t bytes = status_bytes(*status);
  if (element == 0) {
    *count = 0;
  } else if (bytes % element != 0 || bytes / element > 0x7fffffffu) {
    *count = MPI_UNDEFINED;
  } else {
    *count = static_cast<int>(bytes / element);
  }
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Send)
SHMPI_PMPI_ALIAS(Recv)
SHMPI_PMPI_ALIAS(Get_count)
