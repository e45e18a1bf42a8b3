// A tiny check harness for the C++ API test programs, which run as MPI
// ranks under shmpirun (GoogleTest cannot). Each program prints
// "cxx_<name>: FAIL rank R: ..." for every failed check and, if none
// failed, "cxx_<name>: rank R OK"; the CTest case counts the OK lines.
#ifndef SHMPI_TESTS_CXX_CHECK_HPP
#define SHMPI_TESTS_CXX_CHECK_HPP

#include <shmpi.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

class Checker {
 public:
  Checker(std::string_view name, int rank) : name_(name), rank_(rank) {}

  // Records a failure unless `ok`.
  bool operator()(bool ok, std::string_view what) {
    if (!ok) fail(what);
    return ok;
  }

  // Runs `body`, which must throw shmpi::Error with error class `code`
  // (and, if `message` is not empty, exactly that what()).
  template <class Body>
  void throws(int code, Body&& body, std::string_view what, std::string_view message = {}) {
    try {
      body();
    } catch (const shmpi::Error& e) {
      if (e.code() != code)
        fail(std::string(what) + ": code " + std::to_string(e.code()) + " (" + e.what() + ")");
      else if (!message.empty() && message != e.what())
        fail(std::string(what) + ": message '" + e.what() + "'");
      return;
    } catch (const std::exception& e) {
      fail(std::string(what) + ": threw something else: " + e.what());
      return;
    }
    fail(std::string(what) + ": did not throw");
  }

  // Prints the verdict; the exit code for main.
  int finish() const {
    if (failures_ == 0) std::printf("%s: rank %d OK\n", name_.c_str(), rank_);
    std::fflush(stdout);
    return failures_ == 0 ? 0 : 1;
  }

 private:
  void fail(std::string_view what) {
    ++failures_;
    std::printf("%s: FAIL rank %d: %.*s\n", name_.c_str(), rank_, static_cast<int>(what.size()), what.data());
    std::fflush(stdout);
  }

  std::string name_;
  int rank_;
  int failures_ = 0;
};

#endif  // SHMPI_TESTS_CXX_CHECK_HPP
