// cxx_threads: the C++ API under MPI_THREAD_MULTIPLE (docs/cxx_threads.md).
// Two ranks each run `threads` threads (default 4). Thread t of one rank
// exchanges `rounds` messages (default 100) with thread t of the other,
// told apart by tag t, through the one shared world Comm; each thread owns
// its Requests and buffers. Then every thread runs an allreduce on its own
// communicator, dup'ed by the main thread before the threads start (two
// threads must not run collectives on one communicator at once). Every
// received value is checked; each rank prints "cxx_threads: rank R OK".
#include <shmpi.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int words = 16;

// What rank `rank`'s thread `thread` sends in round `round`: unique per
// message, so a message delivered to the wrong thread or round shows.
int value_of(int rank, int thread, int round, int word) {
  return ((rank * 64 + thread) * 100000 + round) * words + word;
}

// Thread t's part: ping-pong by tag t, then an allreduce on its own comm.
// Returns "" or what went wrong.
std::string exchange(shmpi::Comm world, shmpi::Comm own, int thread, int rounds) {
  const int rank = world.rank(), peer = 1 - rank;
  std::array<int, words> out{}, in{};
  for (int round = 0; round < rounds; ++round) {
    for (int w = 0; w < words; ++w) out[w] = value_of(rank, thread, round, w);
    shmpi::Request receive = world.irecv(in, peer, thread);
    shmpi::Request send = world.isend(out, peer, thread);
    const shmpi::Status got = receive.wait();
    send.wait();
    if (got.source() != peer || got.tag() != thread) return "wrong source or tag";
    for (int w = 0; w < words; ++w) {
      if (in[w] != value_of(peer, thread, round, w)) {
        return "round " + std::to_string(round) + " word " + std::to_string(w) + ": got " +
               std::to_string(in[w]);
      }
    }
  }
  const int sum = own.allreduce(thread + 1, shmpi::Op::sum);
  return sum == 2 * (thread + 1) ? "" : "allreduce gave " + std::to_string(sum);
}

}  // namespace

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv, shmpi::ThreadLevel::multiple);
  const shmpi::Comm world = env.world();
  const int rank = world.rank();
  if (env.thread_level() != shmpi::ThreadLevel::multiple || world.size() != 2) {
    std::printf("cxx_threads: rank %d FAIL: needs MPI_THREAD_MULTIPLE (provided %d) and 2 ranks\n",
                rank, static_cast<int>(env.thread_level()));
    return 1;
  }
  const int threads = argc > 1 ? std::atoi(argv[1]) : 4;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 100;

  std::vector<shmpi::UniqueComm> own;  // one per thread, freed after the joins
  for (int t = 0; t < threads; ++t) own.push_back(world.dup());
  std::vector<std::string> errors(static_cast<std::size_t>(threads));
  {
    std::vector<std::jthread> team;
    for (int t = 0; t < threads; ++t) {
      team.emplace_back([&, t] {
        auto& error = errors[static_cast<std::size_t>(t)];
        try {
          error = exchange(world, own[static_cast<std::size_t>(t)], t, rounds);
        } catch (const shmpi::Error& e) {
          error = e.what();
        }
      });
    }
  }  // joins
  bool ok = true;
  for (int t = 0; t < threads; ++t) {
    if (!errors[static_cast<std::size_t>(t)].empty()) {
      std::printf("cxx_threads: rank %d thread %d FAIL: %s\n", rank, t,
                  errors[static_cast<std::size_t>(t)].c_str());
      ok = false;
    }
  }
  if (ok) std::printf("cxx_threads: rank %d: %d threads x %d rounds checked\n", rank, threads, rounds);
  if (ok) std::printf("cxx_threads: rank %d OK\n", rank);
  return ok ? 0 : 1;
}
