// cxx_comm: Environment with a thread level, Comm views, UniqueComm from
// dup() and split() (RAII free, moves, release), separate message spaces.
#include "cxx_check.hpp"

#include <type_traits>
#include <utility>

namespace {

static_assert(std::is_trivially_copyable_v<shmpi::Comm>);
static_assert(!std::is_copy_constructible_v<shmpi::UniqueComm>);
static_assert(std::is_nothrow_move_constructible_v<shmpi::UniqueComm>);
static_assert(std::is_convertible_v<const shmpi::UniqueComm&, shmpi::Comm>);
static_assert(!std::is_copy_constructible_v<shmpi::Environment>);
static_assert(!std::is_move_constructible_v<shmpi::Environment>);

// Written against the view, called with views and owners alike.
int sum_of_ranks(shmpi::Comm comm) { return comm.allreduce(comm.rank(), shmpi::Op::sum); }

void duplicates(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  shmpi::UniqueComm dup = world.dup();
  check(dup.rank() == rank && dup.size() == size && dup.native() != world.native(), "dup shape");
  check(sum_of_ranks(dup) == size * (size - 1) / 2, "dup passed as a Comm view");
  // Same tag on world and dup: each receive sees only its communicator.
  if (size >= 2 && rank < 2) {
    const int peer = 1 - rank;
    if (rank == 0) {
      world.send(1, peer, 7);
      dup.send(2, peer, 7);
    } else {
      check(dup.recv<int>(peer, 7) == 2, "dup message stays on dup");
      check(world.recv<int>(peer, 7) == 1, "world message stays on world");
    }
  }
  // Moves: the moved-from owner is null and frees nothing.
  shmpi::UniqueComm moved = std::move(dup);
  check(dup.is_null() && !moved.is_null() && moved.rank() == rank, "UniqueComm move");  // NOLINT
  shmpi::UniqueComm second = world.dup();
  moved = std::move(second);  // frees the first duplicate
  check(moved.size() == size, "UniqueComm move assignment");
  moved.free();
  check(moved.is_null(), "free() leaves it null");
  // release() gives the handle to C, which frees it.
  shmpi::UniqueComm third = world.dup();
  MPI_Comm raw = third.release();
  check(third.is_null() && raw != MPI_COMM_NULL, "release");
  MPI_Comm_free(&raw);
}

void splits(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  // Parity halves, ordered by descending world rank.
  shmpi::UniqueComm half = world.split(rank % 2, -rank);
  const int members = (size - rank % 2 + 1) / 2;
  check(half && half.size() == members, "split size");
  check(half.rank() == members - 1 - rank / 2, "split key orders descending");
  const shmpi::Comm view = half;
  check(view == half.view() && view.native() == half.native(), "view of an owner");
  int expected = 0;
  for (int r = rank % 2; r < size; r += 2) expected += r;
  int total = 0;
  half.allreduce(rank, total, shmpi::Op::sum);
  check(total == expected, "allreduce on a split");
  // shmpi::undefined: no communicator.
  shmpi::UniqueComm some = world.split(rank == 0 ? shmpi::undefined : 1);
  check(rank == 0 ? some.is_null() : some.size() == size - 1, "undefined color");
  // Splitting a split.
  if (half) {
    shmpi::UniqueComm single = half.split(half.rank());
    check(single.size() == 1 && single.rank() == 0, "split of a split");
  }
}

}  // namespace

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv, shmpi::ThreadLevel::funneled);
  Checker check("cxx_comm", env.world().rank());
  check(env.thread_level() == shmpi::ThreadLevel::funneled, "thread level provided");
  check(shmpi::Environment::initialized() && !shmpi::Environment::finalized(), "initialized");
  check.throws(MPI_ERR_OTHER, [] { shmpi::Environment again; }, "a second Environment");
  const shmpi::Comm world = env.world();
  check(world == shmpi::Comm(MPI_COMM_WORLD) && world != env.self(), "world view");
  check(env.self().size() == 1 && env.self().rank() == 0, "self");
  duplicates(world, check);
  splits(world, check);
  world.barrier();
  return check.finish();
}
