// Schedule: one collective call as rounds of point-to-point steps, and
// Schedules, the nonblocking collectives of a process in flight.
//
// A round starts all its sends and receives at once (receives first), and
// once every one of them has completed runs its local steps (reductions,
// copies) in the order they were added; then the next round starts. Every
// message of a schedule travels on its communicator's collective context
// with the schedule's own tag, taken from a per-communicator sequence:
// collectives start in the same order on every rank, so every rank gives
// the same call the same tag, and two calls in flight at once (a blocking
// one during a nonblocking one, or two nonblocking ones) never match each
// other's messages. Within one schedule, messages between two ranks are
// sent and received in round order, so MPI's non-overtaking rule pairs them.
//
// Schedules move bytes. An argument whose datatype is not contiguous is
// packed into scratch while the schedule is built (runtime/coll_packing.hpp)
// and unpacked into the user's buffer by Unpack steps, a round of their own
// after the last, so the algorithms never see a datatype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "datatype/type.hpp"
#include "pml/pml.hpp"
#include "runtime/communicator.hpp"
#include "runtime/request_table.hpp"
#include "runtime/status_page.hpp"
#include "runtime/user_op.hpp"

namespace shmpi::runtime {

enum class StepKind : std::uint8_t { Send, Recv, Reduce, Copy, Unpack };

struct Step {
  StepKind kind;
  std::int32_t peer;      // Send / Recv: communicator rank; Unpack: index of its layout
  const std::byte* from;  // Send: data; Reduce: `in`; Copy: source; Unpack: packed bytes
  std::byte* to;          // Recv: buffer; Reduce: `inout`; Copy: destination; Unpack: user's buffer
  std::size_t size;       // Send / Recv / Copy: bytes; Reduce / Unpack: elements
};

class Schedule {
 public:
  // A schedule on `comm` (whose ranks and context it copies: the user may
  // free the communicator while the call is in flight) with `tag`.
  Schedule(const Communicator& comm, std::int32_t tag);

  std::int32_t rank() const noexcept { return rank_; }
  std::int32_t size() const noexcept { return size_; }

  // ---- building ----
  void send(std::int32_t to, const void* data, std::size_t bytes);
  void recv(std::int32_t from, void* data, std::size_t bytes);
  // inout = in op inout for `count` elements (operation()).
  void reduce(const void* in, void* inout, std::size_t count);
  void copy(const void* from, void* to, std::size_t bytes);
  // After the last round: unpack `count` elements of `layout` from packed
  // `from` into the user's buffer `to`.
  void unpack_at_end(datatype::TypeRef layout, std::size_t count, const void* from, void* to);
  // After the last round: copy `bytes` bytes (a contiguous block among
  // unpacked ones, Alltoallw).
  void copy_at_end(const void* from, void* to, std::size_t bytes);
  // Steps added from now on belong to a new round (no-op after an empty one).
  void end_round();
  // A buffer of `bytes` that lives as long as the schedule.
  std::byte* scratch(std::size_t bytes);
  void set_operation(const Operation& operation) noexcept { operation_ = operation; }
  const Operation& operation() const noexcept { return operation_; }

  // ---- running ----
  // Starts the first round; true once the whole schedule is done.
  bool start(pml::Pml& pml);
  // Moves on as far as completed steps allow; true once done.
  bool progress(pml::Pml& pml);
  bool done() const noexcept { return round_ == rounds_.size(); }
  // Whether a receive got a longer message than its buffer.
  bool truncated() const noexcept { return truncated_; }
  // What a rank blocked in this schedule waits for (hang report).
  BlockedCall blocked_call(const char* call) const noexcept;

 private:
  struct Round {
    std::uint32_t first;  // index of its first step
    std::uint32_t end;    // one past its last step
  };
  void add(const Step& step);
  void start_round(pml::Pml& pml);
  bool reduced_in_round(const Round& round, const std::byte* buffer) const noexcept;
  bool transfers_complete() const noexcept;
  void finish_round();

  std::uint32_t context_;
  std::int32_t rank_;
  std::int32_t size_;
  std::int32_t tag_;
  std::vector<std::uint32_t> world_ranks_;
  Operation operation_;
  std::vector<Step> steps_;
  std::vector<Round> rounds_;
  std::uint32_t round_first_ = 0;  // first step of the round being built
  std::uint32_t transfers_ = 0;    // sends and receives in the round being built
  std::vector<std::unique_ptr<std::byte[]>> scratch_;
  std::vector<Step> unpacks_;               // added as the last round by start()
  std::vector<datatype::TypeRef> layouts_;  // of the Unpack steps: the user may free the types meanwhile
  // One pml request per transfer of the running round; sized before the
  // first round starts and never resized (the pml holds their addresses).
  std::vector<pml::Request> requests_;
  std::size_t round_ = 0;
  std::size_t running_ = 0;  // transfers started in the running round
  bool truncated_ = false;
};

// An operation made of schedules run one after another, each one's outcome
// choosing the next (MPI_Comm_idup's context agreement, runtime/comm_dup.hpp).
// Its schedules may use one tag: they run in turn on every rank, so between
// two ranks their messages pair up in order as one schedule's rounds do.
class ScheduleChain {
 public:
  virtual ~ScheduleChain() = default;
  // Called before anything runs, then each time the schedule it returned
  // is done: the next to run (owned by the chain, built, not started; it
  // may be one run before), or nullptr once the operation is complete. Runs
  // inside waits: it must not fail or call the user.
  virtual Schedule* next() noexcept = 0;
};

// The nonblocking collectives in flight, each with the request its caller
// waits on, and the per-communicator sequence that names each call's tag.
class Schedules {
 public:
  // The tag of the next collective call on the communicator whose
  // collective context is `context`. Above the fixed tags of the internal
  // blocking collectives (runtime/collectives.cpp).
  std::int32_t next_tag(std::uint32_t context);

  // Takes over a started, unfinished schedule; `request.pml.complete` is
  // set once it is done.
  void add(std::unique_ptr<Schedule> schedule, MpiRequest& request);
  // Starts `chain` and keeps it running with the rest; `request.pml.complete`
  // is set once its last schedule is done (maybe at once). Throws
  // std::bad_alloc before starting anything.
  void start(std::unique_ptr<ScheduleChain> chain, MpiRequest& request, pml::Pml& pml);

  // Moves every schedule in flight on (one branch when there are none, so
  // every wait can call it).
  void progress(pml::Pml& pml) noexcept {
    if (!active_.empty()) progress_active(pml);
  }
  std::size_t active() const noexcept { return active_.size(); }

 private:
  static constexpr std::int32_t kFirstTag = 64;
  static constexpr std::uint32_t kTagRange = 1u << 30;
  struct Active {
    std::unique_ptr<Schedule> schedule;  // a single schedule; null for a chain
    std::unique_ptr<ScheduleChain> chain;
    Schedule* running;  // the one in flight: `schedule`, or one of the chain's
    MpiRequest* request;
  };
  // Moves `a` on; true once its operation is done.
  static bool advance(Active& a, pml::Pml& pml) noexcept;
  // Starts the chain's schedules in turn until one is in flight; true if
  // none is left.
  static bool run_chain(Active& a, pml::Pml& pml) noexcept;
  void progress_active(pml::Pml& pml) noexcept;

  std::vector<Active> active_;
  std::unordered_map<std::uint32_t, std::uint32_t> sequence_;  // collective context -> calls so far
};

}  // namespace shmpi::runtime
