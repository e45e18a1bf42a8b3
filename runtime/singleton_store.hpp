// SingletonStore: a program started without any launcher is rank 0 of 1.
#pragma once

#include <unistd.h>

#include <map>

#include "runtime/kv_store.hpp"

namespace shmpi::runtime {

class SingletonStore final : public KvStore {
 public:
  std::uint32_t rank() const override { return 0; }
  std::uint32_t size() const override { return 1; }
  void put(std::string_view key, std::string_view value) override { entries_[std::string(key)] = value; }
  void fence() override {}
  std::string get(std::uint32_t, std::string_view key) override { return entries_.at(std::string(key)); }
  void finalize() override {}

 protected:
  void request_abort(int, const std::string&) override {}

 private:
  std::map<std::string, std::string, std::less<>> entries_;
};

}  // namespace shmpi::runtime
