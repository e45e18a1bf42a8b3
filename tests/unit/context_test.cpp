// runtime::Context built from a Config and a KvStore: ranks wired up as
// threads of one process through a MemoryStore, without a launcher.
#include "runtime/context.hpp"

#include <stdlib.h>

#include <gtest/gtest.h>
#include <shmpi/job_contract.hpp>

#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/memory_store.hpp"

namespace shmpi::runtime {
namespace {

// The defaults of every tunable, read while no SHMPI_ variable is set.
Config default_config() {
  static const Config config = Config::from_environment();
  return config;
}

std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((seed + i * 7 + (i >> 9)) & 0xff);
  return v;
}

// Runs body(rank) on a thread per rank; rethrows the first failure.
template <class Body>
void run_ranks(std::uint32_t size, Body body) {
  std::vector<std::exception_ptr> failures(size);
  std::vector<std::thread> threads;
  for (std::uint32_t rank = 0; rank < size; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        body(rank);
      } catch (...) {
        failures[rank] = std::current_exception();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

// Rank 0 sends `bytes` to rank 1 on MPI_COMM_WORLD's context, rank 1
// checks them; then both finalize.
void exchange(const Config& config, std::size_t bytes, bool expect_single_copy) {
  MemoryJob job(2);
  const std::vector<std::byte> data = pattern(bytes, 3);
  run_ranks(2, [&](std::uint32_t rank) {
    Context context(config, std::make_unique<MemoryStore>(job, rank));
    EXPECT_EQ(context.rank(), rank);
    EXPECT_EQ(context.size(), 2u);
    EXPECT_EQ(context.single_copy_enabled(), expect_single_copy);
    const std::uint32_t world = context.communicator(MPI_COMM_WORLD)->context;
    pml::Request request;
    if (rank == 0) {
      context.pml().start_send(request, 1, pml::Envelope{world, 0, 5}, data.data(), bytes);
    } else {
      std::vector<std::byte> got(bytes);
      context.pml().start_recv(request, pml::Envelope{world, 0, 5}, got.data(), bytes);
      context.wait(request, BlockedCall{"test", 0, 5, bytes, world});
      EXPECT_EQ(got, data);
      EXPECT_EQ(request.status.bytes, bytes);
    }
    context.wait(request, BlockedCall{"test", -1, 5, bytes, world});
    context.finalize();
  });
  EXPECT_TRUE(job.finalized(0));
  EXPECT_TRUE(job.finalized(1));
}

TEST(Context, TwoRanksWireUpExchangeAndFinalize) {
  exchange(default_config(), 100, true);
  exchange(default_config(), 300'000, true);  // rendezvous
}

TEST(Context, ARefusedSingleCopyIsFoundAtWireUpAndMessagesStream) {
  Config config = default_config();
  config.test_cma_eperm = true;
  exchange(config, 300'000, false);
  config = default_config();
  config.single_copy = SingleCopy::None;
  exchange(config, 300'000, false);
}

// The Context takes its tunables from the Config it is given: a bad
// SHMPI_ variable, which Config::from_environment() refuses, is not read.
TEST(Context, TakesItsConfigAndNeverReadsTheEnvironment) {
  (void)default_config();
  ::setenv("SHMPI_EAGER_LIMIT", "lots", 1);
  EXPECT_THROW((void)Config::from_environment(), ConfigError);
  Config config = default_config();
  config.eager_limit = 512;
  MemoryJob job(1);
  Context context(config, std::make_unique<MemoryStore>(job, 0));
  ::unsetenv("SHMPI_EAGER_LIMIT");
  EXPECT_EQ(context.config().eager_limit, 512u);
  EXPECT_EQ(context.size(), 1u);
}

// A smaller ring takes a default eager limit down with it (the Context
// clamps it); an eager limit the user set that does not fit is refused.
TEST(Config, OnlyAnEagerLimitTheUserSetMustFitTheRing) {
  ::setenv("SHMPI_RING_SIZE", "4096", 1);
  EXPECT_NO_THROW((void)Config::from_environment());
  ::setenv("SHMPI_EAGER_LIMIT", "2048", 1);
  try {
    (void)Config::from_environment();
    ADD_FAILURE() << "eager_limit=2048 with ring_size=4096 was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "invalid SHMPI_EAGER_LIMIT: eager_limit=2048 does not fit a quarter of ring_size=4096 (at most 960)");
  }
  ::setenv("SHMPI_EAGER_LIMIT", "960", 1);
  EXPECT_EQ(Config::from_environment().eager_limit, 960u);
  ::unsetenv("SHMPI_EAGER_LIMIT");
  ::unsetenv("SHMPI_RING_SIZE");
}

TEST(Context, RefusesAJobLargerThanMessageHeadersCanName) {
  MemoryJob job(contract::kMaxRanks + 1);
  try {
    Context context(default_config(), std::make_unique<MemoryStore>(job, 0));
    ADD_FAILURE() << "a job of " << job.size() << " ranks was wired up";
  } catch (const WireUpError& e) {
    EXPECT_EQ(std::string(e.what()), "a job of " + std::to_string(contract::kMaxRanks + 1) +
                                         " ranks: shmpi runs at most " + std::to_string(contract::kMaxRanks));
  }
}

TEST(Context, AMalformedPeerAddressIsAWireUpError) {
  MemoryJob job(2);
  std::thread peer([&job] {
    MemoryStore store(job, 1);
    store.put("shmpi.segment", "garbage");
    store.fence();
  });
  try {
    Context context(default_config(), std::make_unique<MemoryStore>(job, 0));
    ADD_FAILURE() << "wired up with a malformed address";
  } catch (const WireUpError& e) {
    EXPECT_STREQ(e.what(), "malformed segment address 'garbage' from a peer");
  }
  peer.join();
}

}  // namespace
}  // namespace shmpi::runtime
