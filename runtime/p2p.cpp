#include "runtime/p2p.hpp"

#include <cstring>

#include "runtime/api.hpp"
#include "runtime/packed_transfer.hpp"
#include "runtime/packing.hpp"
#include "runtime/status.hpp"

namespace shmpi::runtime {
namespace {

// The slow path of prepare(): an argument failed the fast checks (or the
// communicator is invalid). Out of line, so the per-message path sets up no
// frame for the checks' messages.
[[gnu::noinline, gnu::cold]] int prepare_checked(Context& context, const char* call, const void* buf, int count,
                                                 MPI_Datatype type, int peer, int tag, MPI_Comm comm, bool receive,
                                                 Transfer& out) {
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  // No data, no type: MPI_DATATYPE_NULL with count 0 is an empty message
  // (MPICH's test suite sends them; a count above 0 is still MPI_ERR_TYPE).
  if (type == MPI_DATATYPE_NULL && count == 0) type = MPI_BYTE;
  std::size_t element = 0;
  const Check failed = first_error({check_count(count), check_datatype(context.datatypes(), type, element),
                                    check_buffer(context.datatypes(), buf, count, type),
                                    receive ? check_recv_tag(tag) : check_send_tag(tag),
                                    receive ? check_source(peer, *c) : check_dest(peer, *c)});
  if (failed) return raise_if(context, c, call, failed);
  // Valid, but not the fast path's: a type that is not direct, or so large
  // that count * size may overflow.
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(element, static_cast<std::size_t>(count), &bytes))
    return raise_error(context, c, call, MPI_ERR_COUNT,
                       "count " + std::to_string(count) + " of datatype " + std::to_string(type) + " (" +
                           std::to_string(element) + " bytes each) overflows the message size");
  out = Transfer{c, comm, bytes, peer, tag, element};
  if (context.datatypes().find(type)->direct) return MPI_SUCCESS;
  if (receive) {
    if (int rc = raise_if(context, c, call, check_receivable(context.datatypes(), type, count))) return rc;
  }
  out.packed_type = type;
  out.count = count;
  return MPI_SUCCESS;
}

// The fast path of a committed type that is not direct, once the other
// arguments passed: what prepare_checked() would decide, without building
// its checks; anything it would refuse (or must look at closer) goes there.
[[gnu::noinline]] int prepare_packed(Context& context, const char* call, const void* buf, int count,
                                     MPI_Datatype type, int peer, int tag, MPI_Comm comm, bool receive,
                                     const Communicator& c, const DatatypeInfo& info, Transfer& out) {
  std::size_t bytes = 0;
  bool plain = !__builtin_mul_overflow(info.size, static_cast<std::size_t>(count), &bytes);
  if (plain && receive && count > 0) {
    const DerivedRef& derived = context.datatypes().derived(type);
    plain = derived && plainly_receivable(*derived, count);
  }
  if (!plain) return prepare_checked(context, call, buf, count, type, peer, tag, comm, receive, out);
  out = Transfer{&c, comm, bytes, peer, tag, info.size};
  out.packed_type = type;
  out.count = count;
  return MPI_SUCCESS;
}

inline int prepare(Context& context, const char* call, const void* buf, int count, MPI_Datatype type, int peer,
                   int tag, MPI_Comm comm, bool receive, Transfer& out) {
  // Fast path: every argument valid (prepare_checked's checks then agree).
  const Communicator* c = context.communicator(comm);
  const DatatypeInfo* info = context.datatypes().find(type);
  if (c != nullptr && count >= 0 && info != nullptr && (buf != nullptr || count == 0)) {
    const bool peer_ok =
        (peer >= 0 && peer < c->size) || peer == MPI_PROC_NULL || (receive && peer == MPI_ANY_SOURCE);
    const bool tag_ok = (tag >= 0 && tag <= MPI_TAG_UB_VALUE) || (receive && tag == MPI_ANY_TAG);
    if (peer_ok && tag_ok) {
      if (info->direct) [[likely]] {
        out = Transfer{c, comm, info->size * static_cast<std::size_t>(count), peer, tag, info->size};
        return MPI_SUCCESS;
      }
      if (info->committed)
        return prepare_packed(context, call, buf, count, type, peer, tag, comm, receive, *c, *info, out);
    }
  }
  return prepare_checked(context, call, buf, count, type, peer, tag, comm, receive, out);
}

}  // namespace

int prepare_send(Context& context, const char* call, const void* buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, Transfer& out) {
  return prepare(context, call, buf, count, type, dest, tag, comm, false, out);
}

int prepare_recv(Context& context, const char* call, const void* buf, int count, MPI_Datatype type, int source,
                 int tag, MPI_Comm comm, Transfer& out) {
  return prepare(context, call, buf, count, type, source, tag, comm, true, out);
}

MPI_Request completed_request(Context& context, MPI_Comm comm, bool proc_null_recv) {
  MPI_Request handle = MPI_REQUEST_NULL;
  MpiRequest& r = context.requests().allocate(handle);
  r.comm = comm;
  r.proc_null = proc_null_recv;
  r.pml.kind = proc_null_recv ? pml::RequestKind::Recv : pml::RequestKind::Send;
  r.pml.started = false;  // nothing in the pml to cancel (the slot's last request may have left)
  r.pml.complete = true;
  return handle;
}

void start_send(Context& context, const Transfer& t, const void* buf, pml::SendMode mode, MPI_Request* handle) {
  if (t.proc_null()) {
    *handle = completed_request(context, t.handle, false);
    return;
  }
  MpiRequest& r = context.requests().allocate(*handle);
  r.comm = t.handle;
  if (t.packed())
    return start_packed_send(context, r, t, context.datatypes().layout(t.packed_type), t.comm->world_rank(t.peer),
                             buf, mode);
  context.pml().start_send(r.pml, t.comm->world_rank(t.peer), pml::Envelope{t.comm->context, t.comm->rank, t.tag},
                           buf, t.bytes, mode);
}

void start_recv(Context& context, const Transfer& t, void* buf, MPI_Request* handle) {
  if (t.proc_null()) {
    *handle = completed_request(context, t.handle, true);
    return;
  }
  MpiRequest& r = context.requests().allocate(*handle);
  r.comm = t.handle;
  if (t.packed()) return start_packed_recv(context, r, t, context.datatypes().layout(t.packed_type), buf);
  context.pml().start_recv(r.pml, pml::Envelope{t.comm->context, t.peer, t.tag}, buf, t.bytes);
}

int buffered_send(Context& context, const char* call, const Transfer& t, const void* buf,
                  const datatype::Type* layout) {
  if (t.proc_null()) return MPI_SUCCESS;
  BsendBuffer& space = context.bsend_buffer();
  context.reap();
  auto offset = space.allocate(t.bytes);
  if (!offset) {
    context.pml().progress();  // earlier buffered sends may just have left
    context.reap();
    offset = space.allocate(t.bytes);
  }
  if (!offset) {
    return raise_error(context, t.comm, call, MPI_ERR_BUFFER,
                       space.attached() ? "attached buffer of " + std::to_string(space.size()) +
                                              " bytes has no room for " + std::to_string(t.bytes) +
                                              " more bytes (+" + std::to_string(MPI_BSEND_OVERHEAD) +
                                              " overhead)"
                                        : std::string("no buffer attached (call MPI_Buffer_attach)"));
  }
  if (layout != nullptr || t.packed()) {
    pack_elements(layout != nullptr ? *layout : *context.datatypes().layout(t.packed_type),
                  static_cast<std::uint64_t>(t.count), buf, space.at(*offset));
  } else if (t.bytes != 0) {
    std::memcpy(space.at(*offset), buf, t.bytes);
  }
  MPI_Request handle = MPI_REQUEST_NULL;
  Transfer packed_copy = t;  // the attached buffer holds packed bytes: sent as they are
  packed_copy.packed_type = MPI_DATATYPE_NULL;
  start_send(context, packed_copy, space.at(*offset), pml::SendMode::Standard, &handle);
  MpiRequest& r = *context.requests().find(handle);
  if (r.pml.complete) {  // it left at once: the space is free again
    space.release(*offset);
    context.requests().release(handle);
    return MPI_SUCCESS;
  }
  r.buffered = true;
  r.buffer_offset = *offset;
  context.requests().orphan(handle);  // reap() releases it and its space
  return MPI_SUCCESS;
}

void fill_request_status_of(const MpiRequest& r, MPI_Status& status) noexcept {
  if (r.proc_null) {
    fill_null_status(&status);
  } else if (r.pml.kind == pml::RequestKind::Send) {
    status.MPI_SOURCE = MPI_ANY_SOURCE;
    status.MPI_TAG = MPI_ANY_TAG;
    set_status_bytes(status, 0);
  } else {
    fill_status(&status, r.pml.status);
  }
  status.shmpi_cancelled = r.pml.status.cancelled ? 1 : 0;
}

std::string truncation_reason(const Communicator& comm, const pml::Status& s, std::size_t capacity) {
  return "message from rank " + std::to_string(s.source) + ", tag " + std::to_string(s.tag) + " on " + comm.name +
         " truncated: " + std::to_string(s.sent_bytes) + " bytes sent, buffer holds " + std::to_string(capacity);
}

int retire_raising(Context& context, const char* call, MPI_Request* handle, MPI_Status* status) {
  MpiRequest& r = *context.requests().find(*handle);
  finish_packed(r);
  const int error = completion_error(r);
  fill_request_status(r, status);
  const int rc = error == MPI_SUCCESS ? MPI_SUCCESS : raise_completion_error(context, r, call, error);
  context.requests().retire(r, *handle);
  return rc;
}

int raise_completion_error(Context& context, const MpiRequest& r, const char* call, int error) {
  const Communicator* comm = context.communicator(r.comm);
  if (error == MPI_ERR_TRUNCATE && comm != nullptr)
    return raise_error(context, comm, call, error, truncation_reason(*comm, r.pml.status, r.pml.capacity));
  return raise_error(context, comm, call, error, error_string(error));
}

}  // namespace shmpi::runtime
