// cxx_concepts: the compile-time contract of the C++ API, checked by
// static_assert (this program only has to compile; running it prints OK).
// What must NOT compile is in reject.cpp, driven by CMake.
#include <shmpi.hpp>

#include <array>
#include <complex>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {

struct Plain {
  int a;
  double b;
};
struct NonTrivial {
  NonTrivial(const NonTrivial&) {}
  int a = 0;
};

using shmpi::PersistentSendBuffer;
using shmpi::RecvBuffer;
using shmpi::Reducible;
using shmpi::SendBuffer;
using shmpi::Transferable;

// Transferable is exactly "trivially copyable".
static_assert(Transferable<int> && Transferable<Plain> && Transferable<std::complex<double>>);
static_assert(Transferable<std::array<Plain, 3>>);
static_assert(!Transferable<NonTrivial>);
static_assert(!Transferable<std::string> && !Transferable<std::vector<int>>);

// Reducible: predefined MPI datatypes only.
static_assert(Reducible<int> && Reducible<bool> && Reducible<long double> &&
              Reducible<std::complex<float>> && Reducible<const unsigned char>);
static_assert(!Reducible<Plain> && !Reducible<std::array<int, 2>> && !Reducible<NonTrivial>);

// Send buffers: spans, contiguous containers, single trivially copyable values.
static_assert(SendBuffer<std::span<const int>> && SendBuffer<std::span<int, 4>>);
static_assert(SendBuffer<std::vector<Plain>> && SendBuffer<const std::array<int, 3>&>);
static_assert(SendBuffer<Plain> && SendBuffer<const double&> && SendBuffer<std::string>);
static_assert(!SendBuffer<NonTrivial> && !SendBuffer<std::vector<NonTrivial>>);
static_assert(!SendBuffer<std::vector<std::string>> && !SendBuffer<std::vector<bool>>);

// Receive buffers: mutable, and not a temporary owner.
static_assert(RecvBuffer<std::span<int>> && RecvBuffer<std::vector<int>&> && RecvBuffer<Plain&>);
static_assert(!RecvBuffer<std::span<const int>> && !RecvBuffer<const std::vector<int>&>);
static_assert(!RecvBuffer<std::vector<int>> && !RecvBuffer<std::vector<int>&&>);
static_assert(!RecvBuffer<int> && !RecvBuffer<const int&> && !RecvBuffer<NonTrivial&>);

// Nonblocking sends: no temporaries.
static_assert(PersistentSendBuffer<int&> && PersistentSendBuffer<std::span<const int>>);
static_assert(PersistentSendBuffer<const std::vector<int>&>);
static_assert(!PersistentSendBuffer<int> && !PersistentSendBuffer<std::vector<int>>);

// Member templates are constrained, not just their bodies.
template <class B>
concept CanSend = requires(shmpi::Comm c, B&& b) { c.send(std::forward<B>(b), 0, 0); };
template <class B>
concept CanRecv = requires(shmpi::Comm c, B&& b) { c.recv(std::forward<B>(b), 0, 0); };
template <class T>
concept CanRecvValue = requires(shmpi::Comm c) { c.recv<T>(0, 0); };
template <class B>
concept CanIsend = requires(shmpi::Comm c, B&& b) { c.isend(std::forward<B>(b), 0, 0); };
template <class T>
concept CanAllreduce = requires(shmpi::Comm c, const T& v) { c.allreduce(v, shmpi::Op::sum); };

static_assert(CanSend<std::vector<int>&> && CanSend<Plain> && !CanSend<NonTrivial>);
static_assert(!CanSend<std::vector<std::string>&>);
static_assert(CanRecv<std::vector<int>&> && CanRecv<std::span<int>> && !CanRecv<std::vector<int>>);
static_assert(!CanRecv<const std::vector<int>&> && !CanRecv<NonTrivial&>);
static_assert(CanRecvValue<Plain> && !CanRecvValue<std::string> && !CanRecvValue<NonTrivial>);
static_assert(CanIsend<int&> && !CanIsend<int>);
static_assert(CanAllreduce<int> && CanAllreduce<std::complex<double>> && !CanAllreduce<Plain>);

static_assert(!std::is_copy_constructible_v<shmpi::Request>);
static_assert(!std::is_copy_constructible_v<shmpi::UniqueComm>);
static_assert(std::is_nothrow_move_constructible_v<shmpi::Request>);

}  // namespace

int main() {
  std::printf("cxx_concepts: rank 0 OK\n");
  return 0;
}
