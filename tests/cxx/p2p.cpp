// cxx_p2p: blocking point-to-point through the C++ API: a ring of
// std::span<int>, a struct sent as bytes, single values, ssend, sendrecv,
// probe + Status::count<T>, iprobe, MPI_PROC_NULL and the compile-time
// datatype mapping. Needs at least 2 ranks.
#include "cxx_check.hpp"

#include <array>
#include <complex>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace {

struct Particle {
  double position[3];
  std::int32_t id;
  char label[4];
};

// The compile-time mapping of C++ types to MPI datatypes.
static_assert(shmpi::datatype_of<int> == MPI_INT);
static_assert(shmpi::datatype_of<const double> == MPI_DOUBLE);
static_assert(shmpi::datatype_of<long double> == MPI_LONG_DOUBLE);
static_assert(shmpi::datatype_of<bool> == MPI_CXX_BOOL);
static_assert(shmpi::datatype_of<char> == MPI_CHAR);
static_assert(shmpi::datatype_of<std::complex<double>> == MPI_CXX_DOUBLE_COMPLEX);
static_assert(shmpi::datatype_of<std::complex<float>> == MPI_CXX_FLOAT_COMPLEX);
static_assert(shmpi::datatype_of<Particle> == MPI_BYTE);
static_assert(shmpi::datatype_of<std::array<int, 2>> == MPI_BYTE);
static_assert(shmpi::Reducible<std::uint64_t> && shmpi::Reducible<std::int8_t>);
static_assert(!shmpi::Reducible<Particle> && shmpi::Transferable<Particle>);
static_assert(shmpi::elements_per_value<Particle> == sizeof(Particle));

void ring(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  std::array<int, 8> out{}, in{};
  std::iota(out.begin(), out.end(), rank * 100);
  // Even ranks send first, odd ranks receive first: no deadlock for any size.
  const std::span<const int> send_view(out);
  const std::span<int> recv_view(in);
  shmpi::Status status;
  if (rank % 2 == 0) {
    world.send(send_view, next, 1);
    status = world.recv(recv_view, prev, 1);
  } else {
    status = world.recv(recv_view, prev, 1);
    world.send(send_view, next, 1);
  }
  check(status.source() == prev && status.tag() == 1, "ring status");
  check(status.count<int>() == 8u, "ring count");
  check(in[0] == prev * 100 && in[7] == prev * 100 + 7, "ring payload");

  // The same with sendrecv and a vector.
  std::vector<long> mine(5, rank), theirs(5, -1);
  status = world.sendrecv(mine, next, 2, theirs, prev, 2);
  check(theirs == std::vector<long>(5, prev), "sendrecv payload");
  check(status.count<long>() == 5u && status.source() == prev, "sendrecv status");
}

void structs_and_values(shmpi::Comm world, Checker& check) {
  const int rank = world.rank();
  if (rank == 0) {
    std::vector<Particle> particles(3);
    for (int i = 0; i < 3; ++i) particles[static_cast<std::size_t>(i)] = {{1.0 * i, 2.0, 3.0}, i, {'p', 'q', 'r', 0}};
    world.send(particles, 1, 10);
    world.send(Particle{{9, 9, 9}, 99, {'z', 0, 0, 0}}, 1, 11);  // single value
    world.send(std::complex<double>(1.5, -2.5), 1, 12);
    world.ssend(true, 1, 13);
    world.send(static_cast<long double>(0.25L), 1, 14);
  } else if (rank == 1) {
    std::vector<Particle> particles(4);  // longer than the message
    const shmpi::Status status = world.recv(particles, 0, 10);
    check(status.count<Particle>() == 3u, "struct count");
    check(status.count<char>() == 3 * sizeof(Particle), "struct count in chars");
    check(particles[2].id == 2 && particles[2].position[0] == 2.0 && particles[2].label[1] == 'q',
          "struct payload");
    const auto single = world.recv<Particle>(0, 11);
    check(single.id == 99 && single.label[0] == 'z', "single struct");
    check(world.recv<std::complex<double>>(0, 12) == std::complex<double>(1.5, -2.5), "complex");
    bool flag = false;
    (void)world.recv(flag, 0, 13);
    check(flag, "bool by ssend");
    check(world.recv<long double>(0, 14) == 0.25L, "long double");
  }
}

void probing(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  if (rank == 0) {
    for (int dest = 1; dest < size; ++dest) {
      std::vector<double> data(static_cast<std::size_t>(5 + dest), dest * 0.5);
      world.send(data, dest, 20);
    }
  } else {
    const shmpi::Status status = world.probe(0, 20);
    const auto n = status.count<double>();
    check(n == static_cast<std::size_t>(5 + rank), "probe count<double>");
    // More bytes per value than the message holds: not a whole number.
    check(status.count<std::array<char, 1001>>() == std::nullopt, "count of a non-multiple is nullopt");
    std::vector<double> data(n.value_or(0));
    (void)world.recv(data, status.source(), status.tag());
    check(!data.empty() && data.back() == rank * 0.5, "probed payload");
  }
  world.barrier();
  check(!world.iprobe(shmpi::any_source, 20).has_value(), "iprobe finds nothing");

  // MPI_PROC_NULL: completes at once with the empty status.
  int x = 7;
  world.send(x, shmpi::proc_null, 0);
  const shmpi::Status status = world.recv(x, shmpi::proc_null, 0);
  check(status.source() == shmpi::proc_null && status.count<int>() == 0u && x == 7, "proc_null");
}

}  // namespace

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv);
  const shmpi::Comm world = env.world();
  Checker check("cxx_p2p", world.rank());
  if (!check(world.size() >= 2, "needs at least 2 ranks")) return check.finish();
  ring(world, check);
  structs_and_values(world, check);
  probing(world, check);
  return check.finish();
}
