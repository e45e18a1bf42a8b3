// Info objects: ordered (key, value) string pairs (MPI_Info_*), and the
// table of MPI_Info handles. Keys keep the order they were first set in, so
// MPI_Info_get_nthkey is stable while nothing is deleted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mpi.h"
#include "runtime/stable_slots.hpp"

namespace shmpi::runtime {

class InfoStore {
 public:
  // Sets or replaces `key` (keys compare exactly, as in Open MPI and MPICH).
  void set(std::string_view key, std::string_view value);
  // The value of `key`, or nullptr.
  const std::string* get(std::string_view key) const noexcept;
  // Removes `key`; false if it was not there.
  bool erase(std::string_view key);
  std::size_t size() const noexcept { return pairs_.size(); }
  // The n-th key (0-based, n < size()).
  const std::string& key(std::size_t n) const noexcept { return pairs_[n].first; }
  bool operator==(const InfoStore&) const = default;

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// Why a key or value is refused (MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE), or nothing.
std::optional<std::string> invalid_info_key(const char* key);
std::optional<std::string> invalid_info_value(const char* value);

// MPI_Info handles. MPI_INFO_NULL is 0; MPI_INFO_ENV is 1 and holds what
// the process was started with (command, argv, maxprocs, host, arch, wdir).
class InfoTable {
 public:
  explicit InfoTable(InfoStore env);
  // The info behind `handle`, or nullptr (MPI_INFO_NULL and freed handles).
  InfoStore* find(MPI_Info handle) noexcept;
  MPI_Info add(InfoStore info);
  // Frees `handle`; false for MPI_INFO_ENV and unknown handles.
  bool free(MPI_Info handle) noexcept;

 private:
  StableSlots<std::optional<InfoStore>> slots_;  // index = handle; never moves (runtime/stable_slots.hpp)
};

}  // namespace shmpi::runtime

namespace shmpi::runtime {
// What MPI_INFO_ENV holds: command, argv, maxprocs (the job size), host,
// arch, wdir, thread_level, as far as this process can tell.
InfoStore environment_info(std::uint32_t job_size);
}  // namespace shmpi::runtime
