// cxx_nonblocking: isend/irecv/issend and Request: wait_all (also past its
// 64-request chunk), test(), cancel(), move construction and assignment,
// and the destructor that waits. Needs at least 2 ranks.
#include "cxx_check.hpp"

#include <span>
#include <type_traits>
#include <vector>

namespace {

static_assert(!std::is_copy_constructible_v<shmpi::Request>);
static_assert(!std::is_copy_assignable_v<shmpi::Request>);
static_assert(std::is_nothrow_move_constructible_v<shmpi::Request>);
static_assert(std::is_nothrow_move_assignable_v<shmpi::Request>);
static_assert(sizeof(shmpi::Request) == sizeof(MPI_Request));

// Every rank sends its rank to every other one; statuses name the senders.
void all_to_all(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  const auto n = static_cast<std::size_t>(size);
  std::vector<int> in(n, -1);
  std::vector<shmpi::Request> requests;
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    requests.push_back(world.irecv(std::span(in).subspan(static_cast<std::size_t>(peer), 1), peer, 3));
  }
  for (int peer = 0; peer < size; ++peer)
    if (peer != rank) requests.push_back(world.isend(rank, peer, 3));
  std::vector<shmpi::Status> statuses(requests.size());
  shmpi::wait_all(requests, statuses);
  bool all_null = true;
  for (const auto& r : requests) all_null = all_null && !r.active();
  check(all_null, "wait_all leaves every request null");
  bool ok = true;
  for (int peer = 0, i = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    ok = ok && in[static_cast<std::size_t>(peer)] == peer &&
         statuses[static_cast<std::size_t>(i++)].source() == peer;
  }
  check(ok, "all_to_all payload and statuses");
}

// 150 requests: wait_all works through them in chunks.
void many(shmpi::Comm world, Checker& check) {
  constexpr int kCount = 150;
  const int rank = world.rank();
  if (rank > 1) return;
  const int peer = 1 - rank;
  std::vector<int> out(kCount), in(kCount, -1);
  std::vector<shmpi::Request> requests;
  for (int i = 0; i < kCount; ++i) {
    out[static_cast<std::size_t>(i)] = i * 3 + rank;
    requests.push_back(world.irecv(in[static_cast<std::size_t>(i)], peer, i));
    requests.push_back(world.isend(out[static_cast<std::size_t>(i)], peer, i));
  }
  shmpi::wait_all(requests);
  bool ok = true;
  for (int i = 0; i < kCount; ++i) ok = ok && in[static_cast<std::size_t>(i)] == i * 3 + peer;
  check(ok, "150 requests through wait_all");
}

void moves_and_tests(shmpi::Comm world, Checker& check) {
  const int rank = world.rank();
  if (rank > 1) return;
  const int peer = 1 - rank;
  int a = -1, b = -1, c = -1;
  shmpi::Request first = world.irecv(a, peer, 40);
  shmpi::Request moved(std::move(first));
  check(!first.active() && moved.active(), "move construction transfers the request");  // NOLINT
  shmpi::Request assigned;
  assigned = std::move(moved);
  check(!moved.active() && assigned.active(), "move assignment transfers the request");  // NOLINT

  world.send(rank + 10, peer, 40);
  // Assigning over an active request waits for it first.
  shmpi::Request other = world.irecv(b, peer, 41);
  world.send(rank + 20, peer, 41);
  assigned = std::move(other);
  check(a == peer + 10, "move-assigned-over request was waited for");
  std::optional<shmpi::Status> done;
  while (!(done = assigned.test())) {
  }
  check(b == peer + 20 && done->source() == peer && done->tag() == 41, "test() completes");
  check(!assigned.active() && assigned.test().has_value(), "completed request is null");
  check(assigned.wait().source() == shmpi::any_source, "wait on null gives the empty status");

  // The destructor waits: after the scope the data is there.
  {
    shmpi::Request r = world.irecv(c, peer, 42);
    world.send(rank + 30, peer, 42);
  }
  check(c == peer + 30, "destructor waited for the receive");

  // Cancel a receive nobody will match.
  int never = 0;
  shmpi::Request lonely = world.irecv(never, peer, 999);
  lonely.cancel();
  const shmpi::Status status = lonely.wait();
  check(status.cancelled(), "cancelled receive reports cancelled()");

  // release() hands the handle to C code.
  int d = -1;
  shmpi::Request r = world.irecv(d, peer, 43);
  MPI_Request raw = r.release();
  check(!r.active() && raw != MPI_REQUEST_NULL, "release");
  world.send(rank + 40, peer, 43);
  MPI_Wait(&raw, MPI_STATUS_IGNORE);
  check(d == peer + 40, "released request completes in C");

  // issend completes only once matched: each side posts it, then receives.
  int e = rank + 50, f = -1;
  shmpi::Request sync = world.issend(e, peer, 44);
  (void)world.recv(f, peer, 44);
  sync.wait();
  check(f == peer + 50, "issend");
}

}  // namespace

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv);
  const shmpi::Comm world = env.world();
  Checker check("cxx_nonblocking", world.rank());
  if (!check(world.size() >= 2, "needs at least 2 ranks")) return check.finish();
  all_to_all(world, check);
  many(world, check);
  moves_and_tests(world, check);
  world.barrier();
  return check.finish();
}
