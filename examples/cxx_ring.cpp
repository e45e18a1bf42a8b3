// cxx_ring: the ring example through the C++ API (include/shmpi.hpp).
// Rank 0 sends a token around all ranks `laps` times (default 3); each rank
// adds its rank to it, and rank 0 checks the total against an allreduce.
#include <shmpi.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  shmpi::Environment env(argc, argv);
  const shmpi::Comm world = env.world();
  const int laps = argc > 1 ? std::atoi(argv[1]) : 3;
  const int rank = world.rank(), size = world.size();
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  long token = 0;
  for (int lap = 0; lap < laps; ++lap) {
    if (rank == 0) {
      world.send(token, next, lap);
      token = world.recv<long>(prev, lap);
    } else {
      token = world.recv<long>(prev, lap) + rank;
      world.send(token, next, lap);
    }
  }
  const long expected = laps * world.allreduce(static_cast<long>(rank), shmpi::Op::sum);
  if (rank == 0) {
    std::printf("cxx_ring: %d ranks, %d laps, token %ld (expected %ld)\n", size, laps, token, expected);
    return token == expected ? 0 : 1;
  }
  return 0;
}
