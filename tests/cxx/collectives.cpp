// cxx_collectives: bcast, reduce (every root, in place), allreduce (in
// place, single value) over integer, floating, logical, bitwise and
// complex types, and a struct through bcast.
#include "cxx_check.hpp"

#include <complex>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace {

struct Config {
  int steps;
  double dt;
  char name[8];
};

void broadcasts(shmpi::Comm world, Checker& check) {
  const int size = world.size();
  for (int root = 0; root < size; ++root) {
    std::vector<int> data(100, world.rank() == root ? root + 1 : -1);
    world.bcast(data, root);
    check(data == std::vector<int>(100, root + 1), "bcast vector from every root");
  }
  Config config{};
  if (world.rank() == 0) config = {42, 0.5, "shmpi"};
  world.bcast(config, 0);
  check(config.steps == 42 && config.dt == 0.5 && config.name[0] == 's', "bcast struct");
}

void reductions(shmpi::Comm world, Checker& check) {
  const int rank = world.rank(), size = world.size();
  const int triangle = size * (size - 1) / 2;
  std::vector<long> in(16);
  std::iota(in.begin(), in.end(), rank);
  for (int root = 0; root < size; ++root) {
    std::vector<long> out(rank == root ? 16 : 0);  // only significant at the root
    world.reduce(in, out, shmpi::Op::sum, root);
    if (rank == root) check(out[0] == triangle && out[15] == triangle + 15L * size, "reduce sum");
  }
  std::vector<double> mine(4, rank + 1.0);
  world.reduce_in_place(std::span(mine), shmpi::Op::prod, 0);
  double factorial = 1;
  for (int r = 1; r <= size; ++r) factorial *= r;
  if (rank == 0) check(mine[3] == factorial, "reduce_in_place prod");

  check(world.allreduce(rank, shmpi::Op::max) == size - 1, "allreduce max");
  check(world.allreduce(static_cast<float>(rank), shmpi::Op::min) == 0.0f, "allreduce min");
  check(world.allreduce(rank == 0, shmpi::Op::lor) && !world.allreduce(rank == 0, shmpi::Op::land) == (size > 1),
        "logical ops on bool");
  const std::uint32_t bit = 1u << rank;
  check(world.allreduce(bit, shmpi::Op::bor) == (1u << size) - 1, "bor");
  check(world.allreduce(bit, shmpi::Op::band) == (size == 1 ? 1u : 0u), "band");
  check(world.allreduce(bit | 1u, shmpi::Op::bxor) == ((1u << size) - 2u) + static_cast<std::uint32_t>(size % 2),
        "bxor");
  std::vector<std::complex<double>> z(3, {1.0 * rank, 1.0});
  world.allreduce_in_place(z, shmpi::Op::sum);
  check(z[2] == std::complex<double>(triangle, size), "complex allreduce_in_place");
  std::vector<std::int64_t> a(5, rank), b(5);
  world.allreduce(a, b, shmpi::Op::sum);
  check(b == std::vector<std::int64_t>(5, triangle), "allreduce int64 vectors");
}

}  // namespace

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv);
  const shmpi::Comm world = env.world();
  Checker check("cxx_collectives", world.rank());
  broadcasts(world, check);
  reductions(world, check);
  world.barrier();
  return check.finish();
}
