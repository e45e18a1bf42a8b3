#include "runtime/context.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <utility>

#include <shmpi/job_contract.hpp>

#include "btl/segment_budget.hpp"
#include "pml/protocol.hpp"
#include "runtime/collectives.hpp"
#include "runtime/run_report.hpp"
#include "runtime/thread_support.hpp"
#include "runtime/wait_policy.hpp"

namespace shmpi::runtime {
namespace {

// The owner of the context, and the pointer calls read: atomic, so that a
// thread racing with MPI_Finalize under MPI_THREAD_MULTIPLE (which reads it
// holding the rank's lock) and MPI_Initialized/MPI_Finalized (callable at
// any time, from any thread) read whole words. Acquire and relaxed loads
// are plain loads on the machines we run on.
std::unique_ptr<Context> g_context;
std::atomic<Context*> g_current{nullptr};
std::atomic<bool> g_initialized{false};
std::atomic<bool> g_finalized{false};

constexpr const char* kAddressKey = "shmpi.segment";
constexpr const char* kNetworkKey = "shmpi.net";  // PMIx scope GLOBAL: read by other nodes

std::string encode(const btl::PeerAddress& a) {
  return std::to_string(a.pid) + ":" + std::to_string(a.fd) + ":" + std::to_string(a.bytes) + ":" +
         std::to_string(a.base) + ":" + (a.probes_box_lines ? "1" : "0");
}

btl::PeerAddress decode(const std::string& text) {
  btl::PeerAddress a{};
  long long pid = 0;
  int fd = 0;
  unsigned long long bytes = 0;
  unsigned long long base = 0;
  int probes = 0;
  if (std::sscanf(text.c_str(), "%lld:%d:%llu:%llu:%d", &pid, &fd, &bytes, &base, &probes) != 5)
    throw WireUpError("malformed segment address '" + text + "' from a peer");
  a.pid = pid;
  a.fd = fd;
  a.bytes = bytes;
  a.base = base;
  a.probes_box_lines = probes != 0;
  return a;
}

// The job's size, refused when message headers could not name every rank.
std::uint32_t supported_size(const KvStore& store) {
  static_assert(contract::kMaxRanks - 1 <= pml::kMaxSource);
  if (store.size() > contract::kMaxRanks)
    throw WireUpError("a job of " + std::to_string(store.size()) + " ranks: shmpi runs at most " +
                      std::to_string(contract::kMaxRanks));
  return store.size();
}

// Ranks outnumber cores: a spinning waiter would starve the rank it waits
// for. (A bound rank sees one core; count the node's instead.)
bool ranks_outnumber_cores(const KvStore& store) {
  return store.local_size() > static_cast<std::uint32_t>(::sysconf(_SC_NPROCESSORS_ONLN));
}

// The job's ring per pair: ring_size, halved while a segment of the job's
// size would exceed segment_budget (the same rule on every rank).
std::size_t pair_ring_size(const Config& config, const KvStore& store) noexcept {
  return btl::budget_ring_size(store.size(), config.ring_size, config.segment_budget);
}

btl::Limits transport_limits(const Config& config, const KvStore& store) {
  return btl::Limits{pair_ring_size(config, store), config.numa_policy, config.fast_box,
                     config.box_probe && !ranks_outnumber_cores(store),
                     btl::ClaimAhead{config.claim_ahead_from, config.claim_ahead_limit}, threads_share_rank()};
}

// Every field named: a field added to ProtocolLimits and missed here fails
// the build (-Wmissing-field-initializers).
pml::ProtocolLimits protocol_limits(const Config& config, const KvStore& store) noexcept {
  return pml::ProtocolLimits{
      .eager_limit = std::min(config.eager_limit, btl::eager_limit_for_ring(pair_ring_size(config, store))),
      .max_fragment = config.max_fragment,
      .rndv_threshold = config.rndv_threshold,
      .split_threshold = config.split_threshold,
      .run_copy_min = config.run_copy_min,
      .choose_route = config.choose_route,
      .reply_pipeline_limit = config.reply_pipeline_limit,
      .unexpected_budget = config.unexpected_budget,
  };
}

}  // namespace

Context::Context(const Config& config, std::unique_ptr<KvStore> store)
    : config_(ranks_outnumber_cores(*store) ? config.when_ranks_outnumber_cores() : config),
      store_(std::move(store)),
      transport_(store_->rank(), supported_size(*store_), transport_limits(config_, *store_)),
      single_copy_(config_.single_copy == SingleCopy::Cma, config_.test_cma_eperm),
      pml_(transport_, protocol_limits(config_, *store_),
           wait_policy_for(config_, ranks_outnumber_cores(*store_),
                           config_.poll_gap_ns != 0 ? btl::measure_pause_ns() : 0.0),
           &single_copy_),
      status_(store_->rank(), store_->size()),
      communicators_(store_->rank(), store_->size()),
      objects_(environment_info(store_->size())),
      shm_collectives_(transport_, config_.coll_shm_limit) {
  objects_.predefined.universe_size = static_cast<int>(store_->size());
  if (!config_.stand_by_timeout) idle_threads_.without_safety_timeout();
  wire_up();
}

// Peers on this node talk through shared memory, the others through the
// network; a job with no peer elsewhere makes no network at all.
void Context::wire_up() {
  std::vector<bool> local = store_->on_this_node();
  local.resize(size(), true);
  const bool any_remote = std::find(local.begin(), local.end(), false) != local.end();
  if (any_remote) {
    try {
      network_ = std::make_unique<net::Network>(rank(), size());
    } catch (const net::NetworkError& e) {
      throw WireUpError(e.what());
    }
    store_->put_global(kNetworkKey, network_->address());
  }
  if (single_copy_.enabled()) btl::allow_peer_access();
  store_->put(kAddressKey, encode(transport_.address()));
  store_->fence();
  for (std::uint32_t peer = 0; peer < size(); ++peer) {
    if (peer == rank() || !local[peer]) continue;
    transport_.connect(peer, decode(store_->get(peer, kAddressKey)));
  }
  if (any_remote) connect_network(local);
  transport_.choose_box_lines();
  probe_single_copy(local);
}

// Also makes the endpoint to the first remote peer after this rank, so a
// network that cannot work (no usable device here or there) stops the job
// in MPI_Init with one line, not on the first send. One endpoint only: the
// others wait for their first send, as a large job needs few of them.
void Context::connect_network(const std::vector<bool>& local) {
  std::vector<bool> remote(size(), false);
  try {
    for (std::uint32_t peer = 0; peer < size(); ++peer) {
      if (local[peer]) continue;
      remote[peer] = true;
      transport_.close(peer);
      network_->add_peer(peer, store_->get(peer, kNetworkKey));
    }
    std::uint32_t first = (rank() + 1) % size();
    while (!remote[first]) first = (first + 1) % size();
    network_->connect(first);
  } catch (const net::NetworkError& e) {
    throw WireUpError(e.what());
  }
  pml_.use_network(*network_, remote);
}

// Containers and ptrace policies often forbid CMA: find out now with a real
// transfer (the magic word of the next rank's segment) rather than on the
// first large message. A refusal switches single copy off for this rank,
// whose rendezvous receives then stream through the rings instead.
void Context::probe_single_copy(const std::vector<bool>& local) noexcept {
  std::uint32_t peer = (rank() + 1) % size();
  while (peer != rank() && !local[peer]) peer = (peer + 1) % size();
  if (!single_copy_.enabled() || peer == rank()) return;
  single_copy_.probe(transport_.peer_pid(peer), transport_.peer_segment_base(peer), sizeof(std::uint64_t));
}

void Context::finalize() {
  // Buffered sends and sends the user freed must still reach their peers.
  wait_until([this] { return pml_.owes_nothing() && !requests_.orphan_sends_pending(); },
             BlockedCall{"MPI_Finalize", -2, -1, 0, 0});
  report_run(*this);  // SHMPI_STATS / SHMPI_COMM_MATRIX (run_report.hpp); all ranks or none
  barrier(*this, *communicator(MPI_COMM_WORLD));
  status_.finalized();
  store_->finalize();
}

Context* current_context() noexcept { return g_current.load(std::memory_order_acquire); }

void set_current_context(std::unique_ptr<Context> context) noexcept {
  g_context = std::move(context);
  g_current.store(g_context.get(), std::memory_order_release);
  g_initialized.store(true, std::memory_order_release);
}

std::unique_ptr<Context> take_current_context() noexcept {
  g_current.store(nullptr, std::memory_order_release);
  g_finalized.store(true, std::memory_order_release);
  return std::move(g_context);
}

bool was_initialized() noexcept { return g_initialized.load(std::memory_order_acquire); }
bool was_finalized() noexcept { return g_finalized.load(std::memory_order_acquire); }

}  // namespace shmpi::runtime
