#include "runtime/request_table.hpp"

namespace shmpi::runtime {

MpiRequest& RequestTable::allocate(MPI_Request& handle) {
  MpiRequest* r = free_;
  if (r != nullptr) {
    free_ = r->next_free;
  } else {
    if (slots_.size() % kChunk == 0) chunks_.push_back(std::make_unique<MpiRequest[]>(kChunk));
    r = &chunks_.back()[slots_.size() % kChunk];
    slots_.push_back(r);
    r->handle = static_cast<MPI_Request>(slots_.size());
  }
  // Reset field by field: the pml's start_send/start_recv set up the pml
  // request, and rebuilding all 224 bytes from a temporary cost more than
  // the rest of MPI_Isend together (measured with perf).
  r->comm = MPI_COMM_NULL;
  r->proc_null = false;
  r->orphan = false;
  r->buffered = false;
  r->collective = false;
  r->life = RequestLife::Once;
  r->inactive = false;
  r->buffer_offset = 0;
  if (r->packed.active()) r->packed = PackedBuffer{};  // an orphan's, never completed by the user
  r->next_free = nullptr;
  r->pml.complete = false;
  r->pml.kind = pml::RequestKind::Recv;
  r->pml.status = pml::Status{};
  r->in_use = true;
  ++active_;
  handle = r->handle;
  return *r;
}

void RequestTable::orphan(MPI_Request handle) noexcept {
  MpiRequest& r = *slots_[static_cast<std::size_t>(handle) - 1];
  if (r.pml.complete) {
    release(r);
    return;
  }
  r.orphan = true;
  orphans_.push_back(&r);
}

}  // namespace shmpi::runtime
