#include "runtime/schedule.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "runtime/packing.hpp"

namespace shmpi::runtime {

Schedule::Schedule(const Communicator& comm, std::int32_t tag)
    : context_(comm.collective_context()),
      rank_(comm.rank),
      size_(comm.size),
      tag_(tag),
      world_ranks_(comm.world_ranks) {}

void Schedule::add(const Step& step) {
  if (step.kind == StepKind::Send || step.kind == StepKind::Recv) {
    ++transfers_;
    if (requests_.size() < transfers_) requests_.resize(transfers_);
  }
  steps_.push_back(step);
}

void Schedule::send(std::int32_t to, const void* data, std::size_t bytes) {
  add(Step{StepKind::Send, to, static_cast<const std::byte*>(data), nullptr, bytes});
}

void Schedule::recv(std::int32_t from, void* data, std::size_t bytes) {
  add(Step{StepKind::Recv, from, nullptr, static_cast<std::byte*>(data), bytes});
}

void Schedule::reduce(const void* in, void* inout, std::size_t count) {
  if (count == 0) return;
  add(Step{StepKind::Reduce, -1, static_cast<const std::byte*>(in), static_cast<std::byte*>(inout), count});
}

void Schedule::copy(const void* from, void* to, std::size_t bytes) {
  if (bytes == 0 || from == to) return;
  add(Step{StepKind::Copy, -1, static_cast<const std::byte*>(from), static_cast<std::byte*>(to), bytes});
}

void Schedule::unpack_at_end(datatype::TypeRef layout, std::size_t count, const void* from, void* to) {
  if (count == 0) return;
  unpacks_.push_back(Step{StepKind::Unpack, static_cast<std::int32_t>(layouts_.size()),
                          static_cast<const std::byte*>(from), static_cast<std::byte*>(to), count});
  layouts_.push_back(std::move(layout));
}

void Schedule::copy_at_end(const void* from, void* to, std::size_t bytes) {
  if (bytes == 0 || from == to) return;
  unpacks_.push_back(Step{StepKind::Copy, -1, static_cast<const std::byte*>(from), static_cast<std::byte*>(to), bytes});
}

void Schedule::end_round() {
  const auto end = static_cast<std::uint32_t>(steps_.size());
  if (end == round_first_) return;
  rounds_.push_back(Round{round_first_, end});
  round_first_ = end;
  transfers_ = 0;
}

std::byte* Schedule::scratch(std::size_t bytes) {
  scratch_.push_back(std::make_unique_for_overwrite<std::byte[]>(std::max<std::size_t>(bytes, 1)));
  return scratch_.back().get();
}

bool Schedule::start(pml::Pml& pml) {
  end_round();
  for (const Step& step : unpacks_) add(step);
  end_round();
  round_ = 0;
  if (!done()) start_round(pml);
  return progress(pml);
}

// Whether a reduction of `round` reads `buffer` right after it arrives.
bool Schedule::reduced_in_round(const Round& round, const std::byte* buffer) const noexcept {
  for (std::uint32_t i = round.first; i < round.end; ++i)
    if (steps_[i].kind == StepKind::Reduce && (steps_[i].from == buffer || steps_[i].to == buffer)) return true;
  return false;
}

// Receives first: a rank exchanging with a peer has its receive posted
// before its own message can reach the peer's.
void Schedule::start_round(pml::Pml& pml) {
  const Round& round = rounds_[round_];
  running_ = 0;
  for (StepKind kind : {StepKind::Recv, StepKind::Send}) {
    for (std::uint32_t i = round.first; i < round.end; ++i) {
      const Step& step = steps_[i];
      if (step.kind != kind) continue;
      pml::Request& request = requests_[running_++];
      if (kind == StepKind::Recv && reduced_in_round(round, step.to))
        pml.start_operand_recv(request, pml::Envelope{context_, step.peer, tag_}, step.to, step.size);
      else if (kind == StepKind::Recv)
        pml.start_recv(request, pml::Envelope{context_, step.peer, tag_}, step.to, step.size);
      else
        pml.start_send(request, world_ranks_[static_cast<std::size_t>(step.peer)],
                       pml::Envelope{context_, rank_, tag_}, step.from, step.size);
    }
  }
}

bool Schedule::transfers_complete() const noexcept {
  for (std::size_t i = 0; i < running_; ++i)
    if (!requests_[i].complete) return false;
  return true;
}

void Schedule::finish_round() {
  for (std::size_t i = 0; i < running_; ++i) {
    const pml::Request& request = requests_[i];
    if (request.kind == pml::RequestKind::Recv && request.status.result == pml::Completion::Truncated)
      truncated_ = true;
  }
  const Round& round = rounds_[round_];
  for (std::uint32_t i = round.first; i < round.end; ++i) {
    const Step& step = steps_[i];
    if (step.kind == StepKind::Reduce) operation_.apply(step.from, step.to, step.size);
    if (step.kind == StepKind::Copy) std::memcpy(step.to, step.from, step.size);
    if (step.kind == StepKind::Unpack) {
      const datatype::Type& layout = *layouts_[static_cast<std::size_t>(step.peer)];
      unpack_elements(layout, step.size, step.from, step.size * static_cast<std::uint64_t>(layout.size()), step.to);
    }
  }
}

bool Schedule::progress(pml::Pml& pml) {
  while (!done()) {
    if (!transfers_complete()) return false;
    finish_round();
    if (++round_ < rounds_.size()) start_round(pml);
  }
  return true;
}

BlockedCall Schedule::blocked_call(const char* call) const noexcept {
  for (std::size_t i = 0; i < running_ && !done(); ++i) {
    const pml::Request& request = requests_[i];
    if (request.complete) continue;
    if (request.kind == pml::RequestKind::Send)
      return BlockedCall{call, static_cast<std::int32_t>(request.dest), tag_, request.length, context_};
    const std::int32_t source = request.want.source;
    return BlockedCall{call, static_cast<std::int32_t>(world_ranks_[static_cast<std::size_t>(source)]), tag_,
                       request.capacity, context_};
  }
  return BlockedCall{call, -1, tag_, 0, context_};
}

std::int32_t Schedules::next_tag(std::uint32_t context) {
  const std::uint32_t call = sequence_[context]++;
  return kFirstTag + static_cast<std::int32_t>(call % kTagRange);
}

void Schedules::add(std::unique_ptr<Schedule> schedule, MpiRequest& request) {
  Schedule* running = schedule.get();
  active_.push_back(Active{std::move(schedule), nullptr, running, &request});
}

void Schedules::start(std::unique_ptr<ScheduleChain> chain, MpiRequest& request, pml::Pml& pml) {
  active_.reserve(active_.size() + 1);  // nothing below can fail
  Active a{nullptr, std::move(chain), nullptr, &request};
  if (run_chain(a, pml)) {
    request.pml.complete = true;
    return;
  }
  active_.push_back(std::move(a));
}

bool Schedules::run_chain(Active& a, pml::Pml& pml) noexcept {
  for (;;) {
    a.running = a.chain->next();
    if (a.running == nullptr) return true;
    if (!a.running->start(pml)) return false;
  }
}

bool Schedules::advance(Active& a, pml::Pml& pml) noexcept {
  if (!a.running->progress(pml)) return false;
  return a.chain == nullptr || run_chain(a, pml);
}

void Schedules::progress_active(pml::Pml& pml) noexcept {
  for (std::size_t i = 0; i < active_.size();) {
    Active& a = active_[i];
    if (!advance(a, pml)) {
      ++i;
      continue;
    }
    if (a.schedule != nullptr && a.schedule->truncated()) a.request->pml.status.result = pml::Completion::Truncated;
    a.request->pml.complete = true;
    active_[i] = std::move(active_.back());
    active_.pop_back();
  }
}

}  // namespace shmpi::runtime
