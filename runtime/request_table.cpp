#include "runtime/request_table.hpp"

namespace shmpi::runtime {

MpiRequest& RequestTable::allocate(MPI_Request& handle) {
  MpiRequest* r = free_;
  if (r != nullptr) {
    free_ = r->next_free;
  } else {
    r = &slots_.emplace_back();
    r->handle = static_cast<MPI_Request>(slots_.size());
  }
  const MPI_Request slot_handle = r->handle;
  *r = MpiRequest{};
  r->handle = slot_handle;
  r->in_use = true;
  ++active_;
  handle = slot_handle;
  return *r;
}

void RequestTable::orphan(MPI_Request handle) noexcept {
  MpiRequest& r = slots_[static_cast<std::size_t>(handle) - 1];
  if (r.pml.complete) {
    release(r);
    return;
  }
  r.orphan = true;
  orphans_.push_back(&r);
}

void RequestTable::release(MpiRequest& r) noexcept {
  r.in_use = false;
  r.orphan = false;
  r.next_free = free_;
  free_ = &r;
  --active_;
}

}  // namespace shmpi::runtime
