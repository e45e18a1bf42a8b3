#include "runtime/info.hpp"

#include <algorithm>
#include <cstring>

namespace shmpi::runtime {

void InfoStore::set(std::string_view key, std::string_view value) {
  for (auto& [k, v] : pairs_) {
    if (k == key) {
      v = value;
      return;
    }
  }
  pairs_.emplace_back(std::string(key), std::string(value));
}

const std::string* InfoStore::get(std::string_view key) const noexcept {
  for (const auto& [k, v] : pairs_)
    if (k == key) return &v;
  return nullptr;
}

bool InfoStore::erase(std::string_view key) {
  const auto it = std::find_if(pairs_.begin(), pairs_.end(), [&](const auto& p) { return p.first == key; });
  if (it == pairs_.end()) return false;
  pairs_.erase(it);
  return true;
}

std::optional<std::string> invalid_info_key(const char* key) {
  if (key == nullptr) return "null key";
  const std::size_t n = std::strlen(key);
  if (n == 0) return "empty key";
  if (n > MPI_MAX_INFO_KEY)
    return "key of " + std::to_string(n) + " characters (at most MPI_MAX_INFO_KEY = " +
           std::to_string(MPI_MAX_INFO_KEY) + ")";
  return std::nullopt;
}

std::optional<std::string> invalid_info_value(const char* value) {
  if (value == nullptr) return "null value";
  const std::size_t n = std::strlen(value);
  if (n > MPI_MAX_INFO_VAL)
    return "value of " + std::to_string(n) + " characters (at most MPI_MAX_INFO_VAL = " +
           std::to_string(MPI_MAX_INFO_VAL) + ")";
  return std::nullopt;
}

InfoTable::InfoTable(InfoStore env) : slots_(2) { slots_[MPI_INFO_ENV] = std::move(env); }

InfoStore* InfoTable::find(MPI_Info handle) noexcept {
  if (handle <= MPI_INFO_NULL || static_cast<std::size_t>(handle) >= slots_.size()) return nullptr;
  auto& slot = slots_[static_cast<std::size_t>(handle)];
  return slot ? &*slot : nullptr;
}

MPI_Info InfoTable::add(InfoStore info) {
  std::size_t i = MPI_INFO_ENV + 1;
  while (i < slots_.size() && slots_[i]) ++i;
  if (i == slots_.size()) slots_.emplace_back();
  slots_[i] = std::move(info);
  return static_cast<MPI_Info>(i);
}

bool InfoTable::free(MPI_Info handle) noexcept {
  if (handle <= MPI_INFO_ENV || find(handle) == nullptr) return false;
  slots_[static_cast<std::size_t>(handle)].reset();
  return true;
}

}  // namespace shmpi::runtime
