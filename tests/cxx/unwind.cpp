// cxx_unwind: an exception leaving the Environment's scope on one rank.
// Rank 1 throws with a receive pending that nobody will match: the
// Request's destructor cancels it instead of blocking the unwinding, and
// the Environment's destructor calls MPI_Abort instead of MPI_Finalize,
// so the job ends with an error while rank 0 waits in a barrier, rather
// than hanging.
#include <shmpi.hpp>

#include <cstdio>
#include <stdexcept>

int main(int argc, char** argv) {
  try {
    shmpi::Environment env(argc, argv);
    const shmpi::Comm world = env.world();
    if (world.rank() == 1) {
      int never = 0;
      shmpi::Request pending = world.irecv(never, 0, 77);
      std::printf("cxx_unwind: rank 1 throws\n");
      std::fflush(stdout);
      throw std::runtime_error("boom");
    }
    world.barrier();  // never completes: rank 1 does not get here
    std::printf("cxx_unwind: FAIL rank %d passed the barrier\n", world.rank());
  } catch (const std::exception& e) {
    std::printf("cxx_unwind: FAIL caught %s after the Environment\n", e.what());
  }
  return 0;
}
