// MemoryStore: the KvStore of ranks that are threads of one process, so
// unit tests wire a job up without a launcher. The ranks of a job share one
// MemoryJob; each thread holds the MemoryStore of its rank. Not for the
// message path: every call takes the job's mutex.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/kv_store.hpp"

namespace shmpi::runtime {

// What the ranks of one in-process job share: their committed entries, the
// fence they meet at, and what each told the "launcher".
class MemoryJob {
 public:
  explicit MemoryJob(std::uint32_t size) : size_(size), finalized_(size, false) {}
  MemoryJob(const MemoryJob&) = delete;
  MemoryJob& operator=(const MemoryJob&) = delete;

  std::uint32_t size() const noexcept { return size_; }

  // True once `rank` called finalize().
  bool finalized(std::uint32_t rank) const {
    std::lock_guard lock(mutex_);
    return finalized_[rank];
  }

 private:
  friend class MemoryStore;
  using Entries = std::map<std::pair<std::uint32_t, std::string>, std::string>;

  const std::uint32_t size_;
  mutable std::mutex mutex_;
  std::condition_variable fenced_;  // a fence completed (generation_ moved)
  Entries committed_;               // visible to every rank
  std::uint32_t at_fence_ = 0;      // ranks waiting in the current fence
  std::uint64_t generation_ = 0;    // fences completed
  std::vector<bool> finalized_;
};

class MemoryStore final : public KvStore {
 public:
  MemoryStore(MemoryJob& job, std::uint32_t rank) : job_(job), rank_(rank) {}

  std::uint32_t rank() const override { return rank_; }
  std::uint32_t size() const override { return job_.size_; }

  // Visible to the other ranks after our next fence(), as with PMIx.
  void put(std::string_view key, std::string_view value) override { pending_[std::string(key)] = value; }

  void fence() override {
    std::unique_lock lock(job_.mutex_);
    for (auto& [key, value] : pending_) job_.committed_[{rank_, key}] = std::move(value);
    pending_.clear();
    const std::uint64_t generation = job_.generation_;
    if (++job_.at_fence_ == job_.size_) {
      job_.at_fence_ = 0;
      ++job_.generation_;
      job_.fenced_.notify_all();
      return;
    }
    job_.fenced_.wait(lock, [&] { return job_.generation_ != generation; });
  }

  std::string get(std::uint32_t rank, std::string_view key) override {
    std::lock_guard lock(job_.mutex_);
    const auto found = job_.committed_.find({rank, std::string(key)});
    if (found == job_.committed_.end())
      throw WireUpError("rank " + std::to_string(rank) + " published no '" + std::string(key) + "'");
    return found->second;
  }

  void finalize() override {
    std::lock_guard lock(job_.mutex_);
    job_.finalized_[rank_] = true;
  }

 protected:
  // Threads of a test cannot stop each other: KvStore::abort() then exits
  // the process, which fails the test loudly.
  void request_abort(int, const std::string&) override {}

 private:
  MemoryJob& job_;
  std::uint32_t rank_;
  std::map<std::string, std::string> pending_;  // put, not yet fenced
};

}  // namespace shmpi::runtime
