// Error classes and codes added by the program (MPI_Add_error_class /
// code / string, MPI-4.1's MPI_Remove_error_*), above MPI_ERR_LASTCODE, and
// the user's error handlers (MPI_Comm_create_errhandler).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mpi.h"

namespace shmpi::runtime {

class ErrorCodes {
 public:
  // A new class (its own class) or a new code of `error_class`.
  int add_class();
  int add_code(int error_class);
  // The class of a user code, or nothing if `code` is not one.
  std::optional<int> class_of(int code) const noexcept;
  // The string set for a user code ("" until one is set); nullptr if not one.
  const std::string* text(int code) const noexcept;
  bool set_text(int code, std::string text);
  // Removes a user code (a class only once it has no other codes); false
  // if `code` is not one, or is a class that still has codes.
  bool remove(int code, bool as_class);
  // The largest code handed out (MPI_LASTUSEDCODE).
  int last_used() const noexcept { return last_used_; }

 private:
  struct Entry {
    int error_class;
    std::string text;
    bool live = true;
  };
  const Entry* entry(int code) const noexcept;
  std::vector<Entry> entries_;  // index = code - MPI_ERR_LASTCODE - 1
  int last_used_ = MPI_ERR_LASTCODE;
};

// Error handlers: MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ABORT
// are predefined; user handlers follow. Handles are never reused: a
// communicator may keep a handler its creator has freed.
class ErrhandlerTable {
 public:
  MPI_Errhandler add(MPI_Comm_errhandler_function* fn);
  // The user function behind `handler`, or nullptr (predefined or unknown).
  MPI_Comm_errhandler_function* function(MPI_Errhandler handler) const noexcept;
  bool valid(MPI_Errhandler handler) const noexcept {
    return (handler >= MPI_ERRORS_ARE_FATAL && handler <= MPI_ERRORS_ABORT) || function(handler) != nullptr;
  }

 private:
  std::vector<MPI_Comm_errhandler_function*> user_;  // index = handle - MPI_ERRORS_ABORT - 1
};

}  // namespace shmpi::runtime
