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

}  // namespace

ContextAgreement::ContextAgreement(Context& context, std::uint32_t ids) noexcept
    : table_(context.communicators()), ids_(ids) {
  renew();
}

void ContextAgreement::renew() noexcept {
  mine_ = table_.next_context();
  reserve(table_, mine_, ids_);
}

std::uint32_t ContextAgreement::take_alone(std::uint32_t id) noexcept {
  reserve(table_, id, ids_);
  return id;
}

bool ContextAgreement::take(std::uint32_t id) noexcept {
  // next_context() is a high-water mark: nothing at or above it is used.
  if (id != mine_ && id < table_.next_context()) return false;
  reserve(table_, id, ids_);
  return true;
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
