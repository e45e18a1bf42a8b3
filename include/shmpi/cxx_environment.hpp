// shmpi C++ API: the MPI environment, as one RAII object.
//
//   int main(int argc, char** argv) {
//     shmpi::Environment env(argc, argv);   // MPI_Init
//     shmpi::Comm world = env.world();
//     ...
//   }                                        // MPI_Finalize
//
// Construct exactly one, first thing in main, before any Comm, UniqueComm
// or Request (so that they are destroyed before it). It sets
// MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF, which turns every
// error of the C++ API, and of C calls with no communicator, into a
// shmpi::Error.
//
// Leaving its scope by an exception calls MPI_Abort instead of
// MPI_Finalize: the other ranks are most likely waiting for this one, and
// aborting ends the job with an error where finalizing could hang it.
#ifndef SHMPI_CXX_ENVIRONMENT_HPP
#define SHMPI_CXX_ENVIRONMENT_HPP

#include <shmpi/cxx_comm.hpp>

#include <exception>

namespace shmpi {

enum class ThreadLevel : int {
  single = MPI_THREAD_SINGLE,
  funneled = MPI_THREAD_FUNNELED,
  serialized = MPI_THREAD_SERIALIZED,
  multiple = MPI_THREAD_MULTIPLE,
};

class Environment {
 public:
  // MPI_Init; throws shmpi::Error if MPI is already initialized or
  // initialization fails.
  Environment(int& argc, char**& argv) : Environment(&argc, &argv, nullptr) {}
  Environment() : Environment(nullptr, nullptr, nullptr) {}

  // MPI_Init_thread; thread_level() tells what was provided, which may be
  // less than `required`: check it before starting threads. What may be
  // shared between threads under ThreadLevel::multiple: docs/cxx_threads.md.
  Environment(int& argc, char**& argv, ThreadLevel required)
      : Environment(&argc, &argv, &required) {}
  explicit Environment(ThreadLevel required) : Environment(nullptr, nullptr, &required) {}

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  Environment(Environment&&) = delete;
  Environment& operator=(Environment&&) = delete;

  ~Environment() {
    if (std::uncaught_exceptions() > uncaught_at_start_) {
      (void)MPI_Abort(MPI_COMM_WORLD, 1);
    }
    (void)MPI_Finalize();
  }

  [[nodiscard]] Comm world() const noexcept { return Comm::trusted(MPI_COMM_WORLD); }
  [[nodiscard]] Comm self() const noexcept { return Comm::trusted(MPI_COMM_SELF); }
  [[nodiscard]] ThreadLevel thread_level() const noexcept { return provided_; }

  [[nodiscard]] static bool initialized() noexcept {
    int flag = 0;
    return MPI_Initialized(&flag) == MPI_SUCCESS && flag != 0;
  }
  [[nodiscard]] static bool finalized() noexcept {
    int flag = 0;
    return MPI_Finalized(&flag) == MPI_SUCCESS && flag != 0;
  }

 private:
  Environment(int* argc, char*** argv, const ThreadLevel* required) {
    if (initialized()) detail::raise(MPI_ERR_OTHER, "MPI_Init", "MPI is already initialized");
    int provided = MPI_THREAD_SINGLE;
    if (required == nullptr) {
      detail::check(MPI_Init(argc, argv), "MPI_Init");
      (void)MPI_Query_thread(&provided);
    } else {
      detail::check(MPI_Init_thread(argc, argv, static_cast<int>(*required), &provided),
                    "MPI_Init_thread");
    }
    provided_ = static_cast<ThreadLevel>(provided);
    try {
      detail::return_errors(MPI_COMM_WORLD);
      detail::return_errors(MPI_COMM_SELF);
    } catch (...) {
      (void)MPI_Finalize();
      throw;
    }
  }

  int uncaught_at_start_ = std::uncaught_exceptions();
  ThreadLevel provided_ = ThreadLevel::single;
};

// Seconds since an arbitrary point in the past (MPI_Wtime).
[[nodiscard]] inline double wtime() noexcept { return MPI_Wtime(); }

}  // namespace shmpi

#endif  // SHMPI_CXX_ENVIRONMENT_HPP
