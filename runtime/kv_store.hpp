// KvStore: how ranks find each other at start-up (DESIGN.md "Wire-up").
//
// Each rank put()s what its peers need, fence()s with data collection, then
// get()s its peers' entries. PmixStore is the real one (PMIx client,
// pmix_store.cpp); SingletonStore serves a program started without a
// launcher (singleton_store.hpp); MemoryStore lets unit tests wire ranks up
// as threads of one process (memory_store.hpp).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace shmpi::runtime {

class KvStore {
 public:
  virtual ~KvStore() = default;

  virtual std::uint32_t rank() const = 0;
  virtual std::uint32_t size() const = 0;
  // Ranks of the job on this node (all of them unless the launcher says).
  virtual std::uint32_t local_size() const { return size(); }

  virtual void put(std::string_view key, std::string_view value) = 0;
  // put(), visible to ranks on other nodes too (what only they read).
  virtual void put_global(std::string_view key, std::string_view value) { put(key, value); }
  // By rank: true if it runs on this rank's node (all unless the launcher
  // says otherwise). Peers on this node talk through shared memory.
  virtual std::vector<bool> on_this_node() { return std::vector<bool>(size(), true); }
  // Commits our puts and waits until every rank has committed theirs.
  virtual void fence() = 0;
  virtual std::string get(std::uint32_t rank, std::string_view key) = 0;

  // Asks the launcher to stop the whole job with `code`; exits this process
  // with `code` should the launcher not have stopped it yet.
  [[noreturn]] void abort(int code, const std::string& message) {
    request_abort(code, message);
    std::_Exit(code);
  }
  // Tells the launcher this rank finished cleanly.
  virtual void finalize() = 0;

 protected:
  virtual void request_abort(int code, const std::string& message) = 0;
};

// Thrown when wire-up fails; what() is one line for the user.
struct WireUpError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Connects to the launcher named by the environment, or returns a
// singleton store when no launcher variables are set. Throws WireUpError
// when launcher variables are set but the launcher cannot be reached.
std::unique_ptr<KvStore> connect_to_launcher();

}  // namespace shmpi::runtime
