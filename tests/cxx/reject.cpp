// reject.cpp: each REJECT_CASE > 0 is a misuse of the C++ API that must
// not compile (CMake compiles it once per case and expects the named
// concept in the diagnostics); REJECT_CASE 0 is the same code used
// correctly, so a failure cannot come from an unrelated error.
#include <shmpi.hpp>

#include <string>
#include <vector>

struct NonTrivial {
  NonTrivial() = default;
  NonTrivial(const NonTrivial&) {}
};
struct Plain {
  int a;
};

int main() {
  shmpi::Environment env;
  shmpi::Comm world = env.world();
  std::vector<int> ints(4);
  std::vector<std::string> strings(2);
  const std::vector<int> frozen(4);
  NonTrivial nt;
  Plain plain{};
  (void)strings, (void)frozen, (void)nt, (void)plain;
#if REJECT_CASE == 0
  world.send(ints, 0);
  (void)world.recv(ints, 0);
  shmpi::Request r = world.isend(ints, 0);
  (void)world.recv<Plain>(0);
#elif REJECT_CASE == 1
  world.send(strings, 0);  // elements are not trivially copyable
#elif REJECT_CASE == 2
  world.send(nt, 0);  // not trivially copyable
#elif REJECT_CASE == 3
  (void)world.recv<std::string>(0);  // not trivially copyable
#elif REJECT_CASE == 4
  (void)world.recv(frozen, 0);  // const elements cannot be received into
#elif REJECT_CASE == 5
  shmpi::Request r = world.isend(42, 0);  // the temporary dies before the send reads it
#elif REJECT_CASE == 6
  (void)world.allreduce(plain, shmpi::Op::sum);  // no predefined datatype
#elif REJECT_CASE == 7
  shmpi::Request a = world.isend(ints, 0);
  shmpi::Request b = a;  // move-only
#endif
  return 0;
}
