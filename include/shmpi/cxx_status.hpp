// shmpi C++ API: what a completed receive or a probe reports.
#ifndef SHMPI_CXX_STATUS_HPP
#define SHMPI_CXX_STATUS_HPP

#include <shmpi/cxx_datatype.hpp>

#include <cstddef>
#include <optional>

namespace shmpi {

inline constexpr int any_source = MPI_ANY_SOURCE;
inline constexpr int any_tag = MPI_ANY_TAG;
inline constexpr int proc_null = MPI_PROC_NULL;
inline constexpr int undefined = MPI_UNDEFINED;

// A value type around MPI_Status; same size, trivially copyable. The
// default value is the MPI "empty" status (what a null request or a
// receive from MPI_PROC_NULL reports): any source, any tag, no bytes.
class Status {
 public:
  Status() noexcept : native_{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0, 0} {}
  explicit Status(const MPI_Status& native) noexcept : native_(native) {}

  [[nodiscard]] int source() const noexcept { return native_.MPI_SOURCE; }
  [[nodiscard]] int tag() const noexcept { return native_.MPI_TAG; }

  // Whether the request this status completes was cancelled.
  [[nodiscard]] bool cancelled() const noexcept {
    int flag = 0;
    return MPI_Test_cancelled(&native_, &flag) == MPI_SUCCESS && flag != 0;
  }

  // How many T the message held: its bytes / sizeof(T). std::nullopt when
  // that is not a whole number (MPI_UNDEFINED in C) or exceeds INT_MAX
  // elements.
  template <Transferable T>
  [[nodiscard]] std::optional<std::size_t> count() const noexcept {
    int elements = MPI_UNDEFINED;
    if (MPI_Get_count(&native_, datatype_of<T>, &elements) != MPI_SUCCESS || elements == MPI_UNDEFINED)
      return std::nullopt;
    const auto n = static_cast<std::size_t>(elements);
    if (n % elements_per_value<T> != 0) return std::nullopt;
    return n / elements_per_value<T>;
  }

  [[nodiscard]] const MPI_Status& native() const noexcept { return native_; }
  [[nodiscard]] MPI_Status& native() noexcept { return native_; }

 private:
  MPI_Status native_;
};

static_assert(sizeof(Status) == sizeof(MPI_Status));
static_assert(std::is_trivially_copyable_v<Status>);

}  // namespace shmpi

#endif  // SHMPI_CXX_STATUS_HPP
