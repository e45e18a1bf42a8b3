#include "runtime/comm_dup.hpp"

#include <memory>
#include <new>
#include <string>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/coll_schedules.hpp"
#include "runtime/context_agreement.hpp"
#include "runtime/intercomm.hpp"

namespace shmpi::runtime {
namespace {

// The parent behind `comm` as a duplicate starts: no name, no attributes
// yet, `hints` if given. Throws std::bad_alloc.
Communicator copy_of(Context& context, MPI_Comm comm, const InfoStore* hints) {
  Communicator dup = *context.communicator(comm);
  dup.name.clear();
  dup.attributes.clear();
  if (hints != nullptr) dup.hints = *hints;
  return dup;
}

// Gives `dup` the attributes the copy callbacks of `comm`'s hand out.
// MPI_SUCCESS or the callbacks' error, raised.
int copy_attributes(Context& context, const char* call, MPI_Comm comm, Communicator& dup) {
  if (int rc = copy_comm_attributes(context, comm, dup); rc != MPI_SUCCESS) {
    return raise_error(context, context.communicator(comm), call, rc,
                       "an attribute copy callback returned error " + std::to_string(rc));
  }
  return MPI_SUCCESS;
}

// value = the MAX of every rank's `value` (two uint32 elements) over both
// groups of the intercommunicator schedule `s`: each rank swaps values with
// every remote rank, keeping the MAX of its own and the remote group's;
// then each group's rank 0 sends that to every remote rank, which lacked
// only its own group's.
void build_max_over_both(Schedule& s, ContextProposal* value) {
  constexpr std::size_t kBytes = sizeof *value;
  const std::int32_t remote = s.size();
  std::byte* theirs = s.scratch(kBytes * static_cast<std::size_t>(remote + 1));
  for (std::int32_t r = 0; r < remote; ++r) s.recv(r, theirs + kBytes * static_cast<std::size_t>(r), kBytes);
  for (std::int32_t r = 0; r < remote; ++r) s.send(r, value, kBytes);
  for (std::int32_t r = 0; r < remote; ++r) s.reduce(theirs + kBytes * static_cast<std::size_t>(r), value, 2);
  s.end_round();
  std::byte* leaders = theirs + kBytes * static_cast<std::size_t>(remote);
  s.recv(0, leaders, kBytes);
  if (s.rank() == 0)
    for (std::int32_t r = 0; r < remote; ++r) s.send(r, value, kBytes);
  s.reduce(leaders, value, 2);
  s.end_round();
}

// The context agreement of a nonblocking duplicate: ContextAgreement's
// steps, each exchange a run of one schedule (an allreduce MAX over the
// parent, or build_max_over_both over an intercommunicator's groups). Once
// agreed, the new communicator gets its context.
class BackgroundDuplicate final : public ScheduleChain {
 public:
  // Claims this rank's proposal and builds the exchange over `parent` with
  // `tag`. Throws std::bad_alloc.
  BackgroundDuplicate(Context& context, const Communicator& parent, std::int32_t tag)
      : table_(context.communicators()),
        agreement_(context, parent.inter ? kInterContexts : kIntraContexts),
        placeholder_(agreement_.background_proposal().id),
        exchange_(std::make_unique<Schedule>(parent, tag)) {
    exchange_->set_operation(Operation{MPI_MAX, nullptr, MPI_UINT32_T, 1, sizeof(std::uint32_t), true, nullptr});
    if (parent.inter)
      build_max_over_both(*exchange_, &value_);
    else
      build_allreduce(*exchange_, &value_, &value_, 2);
    const std::uint64_t priority = std::uint64_t{parent.collective_context()} << 32 | static_cast<std::uint32_t>(tag);
    agreement_.run_in_background(priority);
  }
  BackgroundDuplicate(const BackgroundDuplicate&) = delete;
  BackgroundDuplicate& operator=(const BackgroundDuplicate&) = delete;

  // The context the new communicator holds until the agreement ends: our
  // first proposal, reserved here (never used: the request is not complete).
  std::uint32_t placeholder() const noexcept { return placeholder_; }
  void set_newcomm(MPI_Comm handle) noexcept { newcomm_ = handle; }

  Schedule* next() noexcept override {
    for (;;) {
      switch (step_) {
        case Step::Propose:
          value_ = agreement_.background_proposal();
          step_ = Step::Take;
          return exchange_.get();
        case Step::Take:
          agreed_ = value_.id;
          value_ = ContextProposal{agreement_.take(agreed_) ? 0U : 1U, 0};
          step_ = Step::Settle;
          return exchange_.get();
        case Step::Settle:
          if (value_.id == 0) {
            finish();
            return nullptr;
          }
          agreement_.renew();  // taken on some member: all try again
          step_ = Step::Propose;
          break;
      }
    }
  }

 private:
  enum class Step { Propose, Take, Settle };

  // Unless the user freed the new communicator meanwhile (erroneous).
  void finish() noexcept {
    Communicator* comm = table_.find(newcomm_);
    if (comm != nullptr && comm->context == placeholder_) comm->context = agreed_;
  }

  CommunicatorTable& table_;
  ContextAgreement agreement_;
  std::uint32_t placeholder_;
  ContextProposal value_{0, 0};  // what the running exchange MAXes, in place
  std::uint32_t agreed_ = 0;
  Step step_ = Step::Propose;
  MPI_Comm newcomm_ = MPI_COMM_NULL;
  std::unique_ptr<Schedule> exchange_;
};

}  // namespace

int duplicate(Context& context, const char* call, MPI_Comm comm, const InfoStore* hints, MPI_Comm* newcomm) {
  try {
    Communicator dup = copy_of(context, comm, hints);
    if (dup.inter) {
      dup.context = agree_inter_context(context, dup, call);
    } else {
      // Agreed over dup while it still has the parent's context.
      dup.context = agree_over(context, dup, kIntraContexts, call);
    }
    if (int rc = copy_attributes(context, call, comm, dup)) return rc;
    *newcomm = context.communicators().add(std::move(dup));
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), call, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

int start_duplicate(Context& context, const char* call, MPI_Comm comm, const InfoStore* hints, MPI_Comm* newcomm,
                    MPI_Request* request) {
  MPI_Comm added = MPI_COMM_NULL;
  MpiRequest* pending = nullptr;
  try {
    Communicator dup = copy_of(context, comm, hints);
    if (int rc = copy_attributes(context, call, comm, dup)) return rc;
    const Communicator& parent = *context.communicator(comm);
    auto chain = std::make_unique<BackgroundDuplicate>(context, parent,
                                                       context.schedules().next_tag(parent.collective_context()));
    dup.context = chain->placeholder();
    added = context.communicators().add(std::move(dup));
    chain->set_newcomm(added);
    MpiRequest& r = context.requests().allocate(*request);
    pending = &r;
    r.comm = comm;
    r.collective = true;
    r.pml.kind = pml::RequestKind::Send;
    r.pml.capacity = 0;
    *newcomm = added;
    context.schedules().start(std::move(chain), r, context.pml());
  } catch (const std::bad_alloc&) {
    if (added != MPI_COMM_NULL) context.communicators().free(added);
    if (pending != nullptr) context.requests().release(*pending);
    return raise_error(context, context.communicator(comm), call, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
