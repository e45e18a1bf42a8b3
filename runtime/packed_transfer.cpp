#include "runtime/packed_transfer.hpp"

#include <algorithm>

#include "datatype/cursor.hpp"
#include "runtime/api.hpp"
#include "runtime/packing.hpp"

namespace shmpi::runtime {
namespace {

// Receives into more runs than this are not checked for overlap between
// elements (one element's runs were checked when the type was made).
constexpr std::uint64_t kOverlapCheckRuns = 1 << 16;

}  // namespace

Check check_receivable(const DatatypeTable& types, MPI_Datatype type, int count) {
  const DerivedRef& derived = types.derived(type);
  if (!derived || count == 0 || plainly_receivable(*derived, count)) return std::nullopt;
  const datatype::Type& t = *derived->layout;
  const std::string name = "datatype " + std::to_string(type);
  if (derived->overlaps)
    return ArgError{MPI_ERR_TYPE, name + " places two of its elements on the same bytes: cannot receive into it"};
  if (count > 1 && t.extent() < 0)
    return ArgError{MPI_ERR_TYPE, name + " has a negative extent (" + std::to_string(t.extent()) +
                                      "): cannot receive more than one element into it"};
  // Elements interleave when the extent is shorter than the data they span.
  if (count > 1 && t.extent() < t.true_extent() &&
      datatype::find_overlap(t.program(), static_cast<std::uint64_t>(count), t.extent(), kOverlapCheckRuns) ==
          datatype::Overlap::Yes)
    return ArgError{MPI_ERR_TYPE, "the " + std::to_string(count) + " elements of " + name +
                                      " overlap one another (extent " + std::to_string(t.extent()) +
                                      "): cannot receive into them"};
  return std::nullopt;
}

void start_packed_send(Context& context, MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout,
                       std::uint32_t dest, const void* buf, pml::SendMode mode) {
  r.packed.layout = layout;
  const datatype::Type& type = *r.packed.layout;
  const pml::Envelope envelope{t.comm->context, t.comm->rank, t.tag};
  const auto count = static_cast<std::uint64_t>(t.count);
  if (context.pml().moves_runs()) {
    r.packed.runs = runs_of(type, t, buf);
    context.pml().start_send(r.pml, dest, envelope, buf, t.bytes, mode, &r.packed.runs);
    return;
  }
  r.packed.bytes.resize(t.bytes);
  pack_elements(type, count, buf, r.packed.bytes.data());
  context.pml().start_send(r.pml, dest, envelope, r.packed.bytes.data(), t.bytes, mode);
}

void start_packed_recv(Context& context, MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout,
                       void* buf) {
  const pml::Envelope want{t.comm->context, t.peer, t.tag};
  if (!context.pml().moves_runs()) {
    context.pml().start_recv(r.pml, want, receive_buffer(r, t, layout, buf), t.bytes);
    return;
  }
  r.packed.layout = layout;
  const datatype::Type& type = *r.packed.layout;
  r.packed.runs = runs_of(type, t, buf);
  context.pml().start_recv(r.pml, want, buf, t.bytes, &r.packed.runs);
}

void start_packed_mrecv(Context& context, MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout,
                        pml::Unexpected& message, void* buf) {
  if (!context.pml().moves_runs()) {
    context.pml().start_mrecv(r.pml, message, receive_buffer(r, t, layout, buf), t.bytes);
    return;
  }
  r.packed.layout = layout;
  r.packed.runs = runs_of(*layout, t, buf);
  context.pml().start_mrecv(r.pml, message, buf, t.bytes, &r.packed.runs);
}

void* receive_buffer(MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout, void* buf) {
  r.packed.layout = layout;
  r.packed.bytes.resize(t.bytes);
  r.packed.unpack_into = buf;
  r.packed.count = static_cast<std::uint64_t>(t.count);
  return r.packed.bytes.data();
}

void finish_packed_buffer(MpiRequest& r) {
  PackedBuffer& p = r.packed;
  if (p.unpack_into != nullptr && r.pml.complete && !r.pml.status.cancelled) {
    const std::uint64_t bytes = std::min<std::uint64_t>(r.pml.status.bytes, p.bytes.size());
    unpack_elements(*p.layout, p.count, p.bytes.data(), bytes, p.unpack_into);
  }
  p = PackedBuffer{};
}

bool send_packed_now(Context& context, const Transfer& t, const void* buf) {
  if (!context.pml().moves_runs()) return false;
  return context.pml().try_send_eager_now(t.comm->world_rank(t.peer),
                                          pml::Envelope{t.comm->context, t.comm->rank, t.tag},
                                          runs_of(*context.datatypes().layout(t.packed_type), t, buf), t.bytes);
}

int send_packed(Context& context, const char* call, const Transfer& t, const void* buf, pml::SendMode mode) {
  MPI_Request handle = MPI_REQUEST_NULL;
  start_send(context, t, buf, mode, &handle);
  MpiRequest& r = *context.requests().find(handle);
  context.wait(r.pml, BlockedCall{call, t.world_peer(), t.tag, t.bytes, t.comm->context});
  return retire_raising(context, call, &handle, MPI_STATUS_IGNORE);
}

int recv_packed(Context& context, const char* call, const Transfer& t, void* buf, MPI_Status* status) {
  MPI_Request handle = MPI_REQUEST_NULL;
  start_recv(context, t, buf, &handle);
  MpiRequest& r = *context.requests().find(handle);
  context.wait(r.pml, BlockedCall{call, t.world_peer(), t.tag, t.bytes, t.comm->context});
  return retire_raising(context, call, &handle, status);
}

}  // namespace shmpi::runtime
