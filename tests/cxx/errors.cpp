// cxx_errors: every error comes back as shmpi::Error with the MPI error
// class and "<call>: <MPI_Error_string>" as its message, and the job goes
// on working afterwards.
#include "cxx_check.hpp"

#include <stdexcept>
#include <type_traits>
#include <vector>

static_assert(std::is_base_of_v<std::runtime_error, shmpi::Error>);

namespace {

void argument_errors(shmpi::Comm world, Checker& check) {
  const int size = world.size();
  int v = 1;
  check.throws(MPI_ERR_RANK, [&] { world.send(v, size, 0); }, "send to rank size",
               "MPI_Send: MPI_ERR_RANK: invalid rank");
  check.throws(MPI_ERR_RANK, [&] { (void)world.recv(v, -7, 0); }, "recv from rank -7");
  check.throws(MPI_ERR_RANK, [&] { (void)world.isend(v, size + 3, 0); }, "isend to a bad rank");
  check.throws(MPI_ERR_TAG, [&] { world.send(v, 0, -5); }, "negative tag");
  check.throws(MPI_ERR_ROOT, [&] { world.bcast(v, size); }, "bcast root");
  double d = 1.0, e = 0.0;
  check.throws(MPI_ERR_OP, [&] { world.allreduce(d, e, shmpi::Op::band); }, "band on double");
  std::vector<int> three(3), two(2);
  check.throws(MPI_ERR_COUNT, [&] { world.allreduce(three, two, shmpi::Op::sum); },
               "allreduce length mismatch");
  check.throws(MPI_ERR_COMM, [&] { (void)shmpi::Comm{}.rank(); }, "rank of the null comm");
  shmpi::UniqueComm none;
  check.throws(MPI_ERR_COMM, [&] { none.barrier(); }, "barrier on a null UniqueComm");
  std::vector<shmpi::Request> requests(3);
  std::vector<shmpi::Status> statuses(2);
  check.throws(MPI_ERR_COUNT, [&] { shmpi::wait_all(requests, statuses); }, "too few statuses");
}

// A message longer than the buffer: MPI_ERR_TRUNCATE at the receiver
// (around the ring, so that one rank sends to itself).
void truncation(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  const std::vector<int> four{1, 2, 3, 4};
  shmpi::Request sent = world.isend(four, (rank + 1) % size, 5);
  std::vector<int> two(2);
  check.throws(MPI_ERR_TRUNCATE, [&] { (void)world.recv(two, (rank + size - 1) % size, 5); },
               "truncated receive");
  sent.wait();
}

// The runtime still works: a ring and an allreduce.
void still_works(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  int got = -1;
  (void)world.sendrecv(rank, (rank + 1) % size, 9, got, (rank + size - 1) % size, 9);
  check(got == (rank + size - 1) % size, "ring after errors");
  check(world.allreduce(rank, shmpi::Op::sum) == size * (size - 1) / 2, "allreduce after errors");
}

}  // namespace

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv);
  const shmpi::Comm world = env.world();
  Checker check("cxx_errors", world.rank());
  argument_errors(world, check);
  // The same on a communicator of our own, and on one adopted from C.
  shmpi::UniqueComm dup = world.dup();
  argument_errors(dup, check);
  MPI_Comm raw = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &raw);
  MPI_Comm_set_errhandler(raw, MPI_ERRORS_ARE_FATAL);
  argument_errors(shmpi::UniqueComm(raw), check);  // wrapping sets MPI_ERRORS_RETURN
  truncation(world, check);
  still_works(world, check);
  still_works(dup, check);
  return check.finish();
}
