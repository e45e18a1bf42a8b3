#include "runtime/context_agreement.hpp"

#include "runtime/collectives.hpp"
#include "runtime/context.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/intercomm.hpp"

namespace shmpi::runtime {
namespace {

// Reserves `ids` ids from `first` (reserve_context() marks two at a time).
void reserve(CommunicatorTable& table, std::uint32_t first, std::uint32_t ids) noexcept {
  for (std::uint32_t i = 0; i < ids; i += kIntraContexts) table.reserve_context(first + i);
}

// Whether ids [id, id + ids) lie in the claim [claim, claim + claim_ids)
// a rank made and used nothing of, or in it and above every id used
// (`next`): an intercommunicator's four ids agreed two above a rank's own
// proposal are free there if nothing was claimed since.
bool within_claim(std::uint32_t claim, std::uint32_t claim_ids, std::uint32_t id, std::uint32_t ids,
                  std::uint32_t next) noexcept {
  if (id < claim) return false;
  return id + ids <= claim + claim_ids || claim + claim_ids == next;
}

}  // namespace

ContextAgreement::ContextAgreement(Context& context, std::uint32_t ids) noexcept
    : table_(context.communicators()), ids_(ids) {
  renew();
}

ContextAgreement::~ContextAgreement() {
  if (background_) table_.remove_background_agreement(this);
}

void ContextAgreement::run_in_background(std::uint64_t priority) {
  table_.add_background_agreement(this);
  background_ = true;
  priority_ = priority;
}

ContextProposal ContextAgreement::proposal() const noexcept {
  const bool shared = threads_share_rank() || !table_.background_agreements().empty();
  return {mine_, shared ? 1U : 0U};
}

void ContextAgreement::renew() noexcept {
  mine_ = table_.next_context();
  took_ = false;
  reserve(table_, mine_, ids_);
}

std::uint32_t ContextAgreement::take_alone(std::uint32_t id) noexcept {
  reserve(table_, id, ids_);
  return id;
}

bool ContextAgreement::take(std::uint32_t id) noexcept {
  // next_context() is a high-water mark: nothing at or above it is used.
  const std::uint32_t next = table_.next_context();
  const bool ours = mine_ != kTakenOver && within_claim(mine_, ids_, id, ids_, next);
  if (id < next && !ours && !(background_ && take_over(id))) return false;
  reserve(table_, id, ids_);
  took_ = true;
  return true;
}

bool ContextAgreement::take_over(std::uint32_t id) noexcept {
  for (ContextAgreement* other : table_.background_agreements()) {
    if (other == this || other->took_ || other->mine_ == kTakenOver ||
        !within_claim(other->mine_, other->ids_, id, ids_, table_.next_context()))
      continue;
    if (other->priority_ < priority_) return false;
    other->mine_ = kTakenOver;
    return true;
  }
  return false;
}

void max_over(Context& context, const Communicator& comm, ContextProposal& value, const char* call) {
  allreduce(context, comm, &value, Reduction{MPI_MAX, MPI_UINT32_T, 2, sizeof value}, call);
}

void max_over_both(Context& context, const Communicator& inter, ContextProposal& value, const char* call) {
  const Communicator local = local_side(inter);
  max_over(context, local, value, call);
  ContextProposal theirs{0, 0};
  swap_between_leaders(context, inter, &value, &theirs, sizeof value, kInterAgreeTag, call);
  bcast(context, local, &theirs, sizeof theirs, 0, call);
  value = max_of(value, theirs);
}

std::uint32_t agree_over(Context& context, const Communicator& comm, std::uint32_t ids, const char* call) {
  ContextAgreement agreement(context, ids);
  ContextProposal agreed = agreement.proposal();
  const auto exchange = [&](ContextProposal& value) { max_over(context, comm, value, call); };
  exchange(agreed);
  return agreement.settle(agreed, exchange);
}

}  // namespace shmpi::runtime
