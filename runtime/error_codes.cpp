#include "runtime/error_codes.hpp"

#include <algorithm>
#include <utility>

namespace shmpi::runtime {

int ErrorCodes::add_class() {
  const int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(entries_.size());
  entries_.push_back(Entry{code, {}});
  last_used_ = code;
  return code;
}

int ErrorCodes::add_code(int error_class) {
  const int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(entries_.size());
  entries_.push_back(Entry{error_class, {}});
  last_used_ = code;
  return code;
}

const ErrorCodes::Entry* ErrorCodes::entry(int code) const noexcept {
  if (code <= MPI_ERR_LASTCODE) return nullptr;
  const auto i = static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1);
  return i < entries_.size() && entries_[i].live ? &entries_[i] : nullptr;
}

std::optional<int> ErrorCodes::class_of(int code) const noexcept {
  const Entry* e = entry(code);
  if (e == nullptr) return std::nullopt;
  return e->error_class;
}

const std::string* ErrorCodes::text(int code) const noexcept {
  const Entry* e = entry(code);
  return e != nullptr ? &e->text : nullptr;
}

bool ErrorCodes::set_text(int code, std::string text) {
  if (entry(code) == nullptr) return false;
  entries_[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].text = std::move(text);
  return true;
}

bool ErrorCodes::remove(int code, bool as_class) {
  const Entry* e = entry(code);
  if (e == nullptr || (e->error_class == code) != as_class) return false;
  if (as_class) {
    const bool has_codes = std::any_of(entries_.begin(), entries_.end(), [&](const Entry& other) {
      return other.live && other.error_class == code && &other != e;
    });
    if (has_codes) return false;
  }
  entries_[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].live = false;
  return true;
}

MPI_Errhandler ErrhandlerTable::add(MPI_Comm_errhandler_function* fn) {
  user_.push_back(fn);
  return static_cast<MPI_Errhandler>(MPI_ERRORS_ABORT + static_cast<int>(user_.size()));
}

MPI_Comm_errhandler_function* ErrhandlerTable::function(MPI_Errhandler handler) const noexcept {
  if (handler <= MPI_ERRORS_ABORT) return nullptr;
  const auto i = static_cast<std::size_t>(handler - MPI_ERRORS_ABORT - 1);
  return i < user_.size() ? user_[i] : nullptr;
}

}  // namespace shmpi::runtime
