// shmpi C++ API: communicators.
//
// Comm is a non-owning view of a communicator, like std::string_view: one
// integer, trivially copyable, cheap to pass by value; the Environment
// hands out views of MPI_COMM_WORLD and MPI_COMM_SELF. UniqueComm owns a
// communicator made by dup() or split() and frees it (MPI_Comm_free) when
// destroyed, like std::unique_ptr; it is move-only and converts to a Comm
// view, so functions written against Comm accept both. A view must not
// outlive the UniqueComm it came from.
//
// Both have the same operations (rank, size, dup, split and everything in
// cxx_p2p.hpp and cxx_collectives.hpp), shared through CRTP mix-ins
// rather than virtual functions. Every communicator the C++ API wraps has
// MPI_ERRORS_RETURN set, so errors surface as shmpi::Error.
#ifndef SHMPI_CXX_COMM_HPP
#define SHMPI_CXX_COMM_HPP

#include <shmpi/cxx_collectives.hpp>
#include <shmpi/cxx_p2p.hpp>

#include <utility>

namespace shmpi {

class UniqueComm;

namespace detail {

inline void return_errors(MPI_Comm comm) {
  check(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

template <class Self>
class CommCore : public PointToPoint<Self>, public Collectives<Self> {
 public:
  // This process's rank in the communicator, 0 .. size() - 1.
  [[nodiscard]] int rank() const {
    int rank = MPI_UNDEFINED;
    check(MPI_Comm_rank(comm(), &rank), "MPI_Comm_rank");
    return rank;
  }

  [[nodiscard]] int size() const {
    int size = 0;
    check(MPI_Comm_size(comm(), &size), "MPI_Comm_size");
    return size;
  }

  // A new communicator with the same ranks and a separate message space
  // (collective: every rank calls it).
  [[nodiscard]] UniqueComm dup() const;

  // Partitions the ranks by `color`, ordering each part by (key, old
  // rank); a rank passing shmpi::undefined as color gets a null
  // UniqueComm (collective).
  [[nodiscard]] UniqueComm split(int color, int key = 0) const;

 private:
  MPI_Comm comm() const noexcept { return static_cast<const Self&>(*this).native(); }
};

}  // namespace detail

class Comm : public detail::CommCore<Comm> {
 public:
  // The null communicator: every operation on it throws MPI_ERR_COMM.
  constexpr Comm() noexcept = default;

  // A view of a communicator from C code; sets MPI_ERRORS_RETURN on it
  // (throws if `native` is not a valid communicator).
  explicit Comm(MPI_Comm native) : native_(native) {
    if (native != MPI_COMM_NULL) detail::return_errors(native);
  }

  [[nodiscard]] constexpr MPI_Comm native() const noexcept { return native_; }
  [[nodiscard]] constexpr bool is_null() const noexcept { return native_ == MPI_COMM_NULL; }

  // Same handle (not MPI_Comm_compare's congruence).
  friend constexpr bool operator==(Comm a, Comm b) noexcept { return a.native_ == b.native_; }

 private:
  friend class Environment;
  friend class UniqueComm;
  // For handles whose error handler the C++ API has already set.
  static constexpr Comm trusted(MPI_Comm native) noexcept {
    Comm comm;
    comm.native_ = native;
    return comm;
  }

  MPI_Comm native_ = MPI_COMM_NULL;
};

static_assert(sizeof(Comm) == sizeof(MPI_Comm));
static_assert(std::is_trivially_copyable_v<Comm>);

class UniqueComm : public detail::CommCore<UniqueComm> {
 public:
  UniqueComm() noexcept = default;

  // Takes ownership of a communicator from C code (not WORLD or SELF) and
  // sets MPI_ERRORS_RETURN on it.
  explicit UniqueComm(MPI_Comm adopted) : native_(adopted) {
    if (adopted != MPI_COMM_NULL) detail::return_errors(adopted);
  }

  UniqueComm(const UniqueComm&) = delete;
  UniqueComm& operator=(const UniqueComm&) = delete;
  UniqueComm(UniqueComm&& other) noexcept : native_(std::exchange(other.native_, MPI_COMM_NULL)) {}
  UniqueComm& operator=(UniqueComm&& other) noexcept {
    if (this != &other) {
      destroy();
      native_ = std::exchange(other.native_, MPI_COMM_NULL);
    }
    return *this;
  }
  // Frees the communicator; errors are swallowed (call free() to see
  // them). Nothing happens after MPI_Finalize.
  ~UniqueComm() { destroy(); }

  // Frees the communicator now, reporting errors; null afterwards.
  void free() {
    if (native_ != MPI_COMM_NULL) detail::check(MPI_Comm_free(&native_), "MPI_Comm_free");
  }

  [[nodiscard]] MPI_Comm native() const noexcept { return native_; }
  [[nodiscard]] bool is_null() const noexcept { return native_ == MPI_COMM_NULL; }
  explicit operator bool() const noexcept { return !is_null(); }

  // A non-owning view; valid while this UniqueComm owns the communicator.
  [[nodiscard]] Comm view() const noexcept { return Comm::trusted(native_); }
  operator Comm() const noexcept { return view(); }

  // Hands the communicator to C code, which must free it; null afterwards.
  [[nodiscard]] MPI_Comm release() noexcept { return std::exchange(native_, MPI_COMM_NULL); }

 private:
  void destroy() noexcept {
    if (native_ == MPI_COMM_NULL) return;
    int finalized = 0;
    if (MPI_Finalized(&finalized) == MPI_SUCCESS && finalized == 0) (void)MPI_Comm_free(&native_);
    native_ = MPI_COMM_NULL;
  }

  MPI_Comm native_ = MPI_COMM_NULL;
};

template <class Self>
UniqueComm detail::CommCore<Self>::dup() const {
  MPI_Comm out = MPI_COMM_NULL;
  check(MPI_Comm_dup(comm(), &out), "MPI_Comm_dup");
  return UniqueComm(out);
}

template <class Self>
UniqueComm detail::CommCore<Self>::split(int color, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  check(MPI_Comm_split(comm(), color, key, &out), "MPI_Comm_split");
  return UniqueComm(out);
}

}  // namespace shmpi

#endif  // SHMPI_CXX_COMM_HPP
