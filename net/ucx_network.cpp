// Network over UCX: one UCP worker, one active-message id, endpoints made on
// the first send to each peer. See network.hpp for the contract and
// DESIGN.md "More than one node" for the UCX facts this relies on.
#include <poll.h>
#include <sched.h>
#include <ucp/api/ucp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <unistd.h>
#include <vector>

#include "net/network.hpp"
#include "net/reorder_buffer.hpp"

namespace shmpi::net {
namespace {

constexpr unsigned kAmId = 17;

// Precedes the caller's header on the wire.
struct WireHeader {
  std::uint32_t source;  // sender's world rank
  std::uint32_t seq;     // per pair, from 0
};

// UCX 1.13 has no UCP_AM_SEND_FLAG_COPY_HEADER: a send's header lives here
// until the send completes.
struct SendSlot {
  alignas(8) std::byte header[sizeof(WireHeader) + Network::kMaxHeader];
  OnDone done = nullptr;
  void* user = nullptr;
  Network::Impl* owner = nullptr;
  SendSlot* next_free = nullptr;
};

// A payload received into `scratch` because the buffer is shorter (truncation).
struct RecvOp {
  void* buffer;
  std::size_t capacity;
  std::vector<std::byte> scratch;
  OnDone done;
  void* user;
  Network::Impl* owner;
};

// An arrival ahead of its turn, kept (copied) until the ones before it came.
struct Held {
  std::vector<std::byte> header;
  std::vector<std::byte> data;
  std::uint64_t length;
  void* pending;
};

struct Peer {
  std::vector<std::byte> address;  // empty: not a network peer
  ucp_ep_h ep = nullptr;
  std::uint32_t next_send = 0;
  ReorderBuffer<Held> arrivals;  // puts its messages back in send order
};

[[noreturn]] void fatal(std::uint32_t rank, const std::string& what) {
  const std::string line = "shmpi: rank " + std::to_string(rank) + ": " + what + "\n";
  [[maybe_unused]] ssize_t n = ::write(2, line.data(), line.size());
  std::_Exit(1);
}

std::string hex(const void* bytes, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = static_cast<const unsigned char*>(bytes)[i];
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace

struct Network::Impl {
  std::uint32_t rank;
  ucp_context_h context = nullptr;
  ucp_worker_h worker = nullptr;
  int wakeup_fd = -1;  // the worker's event fd (owned by UCX), readable on traffic
  ucp_address_t* address = nullptr;
  std::size_t address_bytes = 0;
  std::vector<Peer> peers;
  OnArrival on_arrival = nullptr;
  void* owner = nullptr;
  std::deque<SendSlot> slots;  // stable addresses
  SendSlot* free_slots = nullptr;
  std::uint32_t in_flight = 0;  // sends and receives UCX still holds
  bool closing = false;         // the destructor runs: no callbacks to the owner
  std::uint64_t sent = 0;
  std::uint64_t received = 0;

  Impl(std::uint32_t r, std::uint32_t nranks) : rank(r), peers(nranks) {}
  ~Impl();
  void open();
  std::string make_endpoint(std::uint32_t peer) noexcept;
  ucp_ep_h endpoint(std::uint32_t peer) noexcept;
  SendSlot& take_slot();
  ucs_status_t arrive(const void* header, std::size_t header_bytes, void* data, std::size_t length, bool rndv);
  bool deliver(const Arrival& arrival) { return on_arrival(owner, arrival); }
  void finish(RecvOp* op) noexcept;
};

namespace {

void on_sent(void* request, ucs_status_t status, void* user_data) {
  auto* slot = static_cast<SendSlot*>(user_data);
  Network::Impl& impl = *slot->owner;
  if (status != UCS_OK && !impl.closing) fatal(impl.rank, std::string("network send failed: ") + ucs_status_string(status));
  --impl.in_flight;
  if (slot->done != nullptr && !impl.closing) slot->done(slot->user);
  slot->next_free = impl.free_slots;
  impl.free_slots = slot;
  ucp_request_free(request);
}

void on_received(void* request, ucs_status_t status, std::size_t, void* user_data) {
  auto* op = static_cast<RecvOp*>(user_data);
  if (status != UCS_OK && !op->owner->closing)
    fatal(op->owner->rank, std::string("network receive failed: ") + ucs_status_string(status));
  --op->owner->in_flight;
  op->owner->finish(op);
  ucp_request_free(request);
}

ucs_status_t on_am(void* arg, const void* header, std::size_t header_bytes, void* data, std::size_t length,
                   const ucp_am_recv_param_t* param) {
  const bool rndv = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
  return static_cast<Network::Impl*>(arg)->arrive(header, header_bytes, data, length, rndv);
}

}  // namespace

// Messages below this go eagerly (UCX_RNDV_THRESH): see open().
constexpr const char* kRndvThreshold = "262144";

// UCX hooks memory functions by default, which AddressSanitizer's own
// hooks break (DESIGN.md): a sanitized build turns that off unless the
// user set it.
static void quiet_memory_hooks_under_asan() {
#if defined(__SANITIZE_ADDRESS__)
  ::setenv("UCX_MEM_EVENTS", "n", 0);
  ::setenv("UCX_MEM_MALLOC_HOOKS", "n", 0);
#endif
}

void Network::Impl::open() {
  quiet_memory_hooks_under_asan();
  ucp_config_t* config = nullptr;
  if (ucp_config_read(nullptr, nullptr, &config) != UCS_OK) throw NetworkError("UCX: cannot read its configuration");
  // UCX's own rendezvous threshold for active messages over tcp costs a
  // flat ~60 us from 8 to 128 KiB; eager up to 256 KiB does not (docs/design.md).
  // A UCX_RNDV_THRESH the user set wins.
  if (std::getenv("UCX_RNDV_THRESH") == nullptr) (void)ucp_config_modify(config, "RNDV_THRESH", kRndvThreshold);
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES;
  params.features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
  const ucs_status_t init = ucp_init(&params, config, &context);
  ucp_config_release(config);
  if (init != UCS_OK) throw NetworkError(std::string("UCX initialisation failed: ") + ucs_status_string(init));
  ucp_worker_params_t worker_params{};
  worker_params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  worker_params.thread_mode = UCS_THREAD_MODE_SINGLE;
  if (const ucs_status_t s = ucp_worker_create(context, &worker_params, &worker); s != UCS_OK)
    throw NetworkError(std::string("UCX worker creation failed: ") + ucs_status_string(s));
  // Without a wake-up fd (a transport that has none) a waiting rank yields.
  if (ucp_worker_get_efd(worker, &wakeup_fd) != UCS_OK) wakeup_fd = -1;
  // Network-only: a full address would let UCX pick its own shared memory
  // between "nodes" it finds on one host (DESIGN.md).
  ucp_worker_attr_t attr{};
  attr.field_mask = UCP_WORKER_ATTR_FIELD_ADDRESS | UCP_WORKER_ATTR_FIELD_ADDRESS_FLAGS;
  attr.address_flags = UCP_WORKER_ADDRESS_FLAG_NET_ONLY;
  if (const ucs_status_t s = ucp_worker_query(worker, &attr); s != UCS_OK)
    throw NetworkError(std::string("UCX found no network address: ") + ucs_status_string(s));
  address = attr.address;
  address_bytes = attr.address_length;
  ucp_am_handler_param_t handler{};
  handler.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                       UCP_AM_HANDLER_PARAM_FIELD_ARG | UCP_AM_HANDLER_PARAM_FIELD_FLAGS;
  handler.id = kAmId;
  handler.flags = UCP_AM_FLAG_WHOLE_MSG;
  handler.cb = on_am;
  handler.arg = this;
  if (const ucs_status_t s = ucp_worker_set_am_recv_handler(worker, &handler); s != UCS_OK)
    throw NetworkError(std::string("UCX active messages unavailable: ") + ucs_status_string(s));
}

// Everything we sent must have left before the endpoints go (the job's
// last barrier has run: every peer has what it needs of us).
Network::Impl::~Impl() {
  closing = true;
  if (worker != nullptr) {
    for (std::uint64_t spins = 0; in_flight != 0 && spins < (1u << 24); ++spins) ucp_worker_progress(worker);
    for (Peer& peer : peers) {
      if (peer.ep == nullptr) continue;
      ucp_request_param_t param{};
      param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
      param.flags = UCP_EP_CLOSE_FLAG_FORCE;
      ucs_status_ptr_t closing_request = ucp_ep_close_nbx(peer.ep, &param);
      if (UCS_PTR_IS_PTR(closing_request)) {
        while (ucp_request_check_status(closing_request) == UCS_INPROGRESS) ucp_worker_progress(worker);
        ucp_request_free(closing_request);
      }
    }
    for (Peer& peer : peers)
      peer.arrivals.for_each_held([this](Held& held) {
        if (held.pending != nullptr) ucp_am_data_release(worker, held.pending);
      });
    if (address != nullptr) ucp_worker_release_address(worker, address);
    ucp_worker_destroy(worker);
  }
  if (context != nullptr) ucp_cleanup(context);
}

// Empty if the endpoint to `peer` exists or was made now; otherwise the
// line for the user saying why there is none.
std::string Network::Impl::make_endpoint(std::uint32_t peer) noexcept {
  Peer& p = peers[peer];
  if (p.ep != nullptr) return {};
  if (p.address.empty()) return "rank " + std::to_string(peer) + " is not a network peer";
  ucp_ep_params_t params{};
  params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
  params.address = reinterpret_cast<const ucp_address_t*>(p.address.data());
  const ucs_status_t s = ucp_ep_create(worker, &params, &p.ep);
  if (s == UCS_OK) return {};
  p.ep = nullptr;
  // Unreachable: no transport both ends share, i.e. no usable network
  // device here or there (UCX_NET_DEVICES, UCX_TLS, a host without one).
  const std::string why = s == UCS_ERR_UNREACHABLE ? "UCX found no usable network device to reach rank "
                                                   : "no network path to rank ";
  return why + std::to_string(peer) + " (UCX: " + ucs_status_string(s) + "; see UCX_TLS and UCX_NET_DEVICES)";
}

ucp_ep_h Network::Impl::endpoint(std::uint32_t peer) noexcept {
  Peer& p = peers[peer];
  if (p.ep != nullptr) [[likely]] return p.ep;
  if (const std::string error = make_endpoint(peer); !error.empty()) fatal(rank, error);
  return p.ep;
}

SendSlot& Network::Impl::take_slot() {
  SendSlot* slot = free_slots;
  if (slot != nullptr) {
    free_slots = slot->next_free;
  } else {
    slot = &slots.emplace_back();
    slot->owner = this;
  }
  return *slot;
}

ucs_status_t Network::Impl::arrive(const void* header, std::size_t header_bytes, void* data, std::size_t length,
                                   bool rndv) {
  WireHeader wire;
  std::memcpy(&wire, header, sizeof wire);
  const auto* user_header = static_cast<const std::byte*>(header) + sizeof wire;
  const std::size_t user_bytes = header_bytes - sizeof wire;
  const auto* payload = static_cast<const std::byte*>(data);
  ReorderBuffer<Held>& order = peers[wire.source].arrivals;
  if (!order.in_turn(wire.seq)) {
    // Early: keep a copy (or the rendezvous descriptor) until its turn.
    Held held{std::vector<std::byte>(user_header, user_header + user_bytes), {}, length, rndv ? data : nullptr};
    if (!rndv) held.data.assign(payload, payload + length);
    order.hold(wire.seq, std::move(held));
    return rndv ? UCS_INPROGRESS : UCS_OK;
  }
  order.take();
  if (!rndv) received += length;
  const Arrival arrival{wire.source, {user_header, user_bytes},
                        rndv ? std::span<const std::byte>{} : std::span<const std::byte>(payload, length), length,
                        rndv ? data : nullptr};
  const bool kept = deliver(arrival);
  order.release([this, source = wire.source](Held& held) {
    if (held.pending == nullptr) received += held.length;
    deliver(Arrival{source, held.header, held.data, held.length, held.pending});
  });
  return rndv && kept ? UCS_INPROGRESS : UCS_OK;
}

void Network::Impl::finish(RecvOp* op) noexcept {
  if (!op->scratch.empty()) std::memcpy(op->buffer, op->scratch.data(), op->capacity);
  if (op->done != nullptr && !closing) op->done(op->user);
  delete op;
}

Network::Network(std::uint32_t rank, std::uint32_t nranks) : impl_(std::make_unique<Impl>(rank, nranks)) {
  impl_->open();
}

Network::~Network() = default;

void Network::set_receiver(OnArrival on_arrival, void* owner) noexcept {
  impl_->on_arrival = on_arrival;
  impl_->owner = owner;
}

std::string Network::address() const { return hex(impl_->address, impl_->address_bytes); }

void Network::add_peer(std::uint32_t peer, const std::string& address) {
  if (address.size() % 2 != 0 || address.empty()) throw NetworkError("malformed network address of rank " + std::to_string(peer));
  std::vector<std::byte>& bytes = impl_->peers.at(peer).address;
  bytes.resize(address.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::byte>(std::stoul(address.substr(2 * i, 2), nullptr, 16));
}

void Network::connect(std::uint32_t peer) {
  if (const std::string error = impl_->make_endpoint(peer); !error.empty()) throw NetworkError(error);
}

bool Network::send(std::uint32_t peer, std::span<const std::byte> header, const void* data, std::size_t bytes,
                   OnDone done, void* user) noexcept {
  Impl& impl = *impl_;
  ucp_ep_h ep = impl.endpoint(peer);
  SendSlot& slot = impl.take_slot();
  const WireHeader wire{impl.rank, impl.peers[peer].next_send++};
  std::memcpy(slot.header, &wire, sizeof wire);
  std::memcpy(slot.header + sizeof wire, header.data(), header.size());
  slot.done = done;
  slot.user = user;
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  param.cb.send = on_sent;
  param.user_data = &slot;
  impl.sent += bytes;
  const ucs_status_ptr_t status =
      ucp_am_send_nbx(ep, kAmId, slot.header, sizeof wire + header.size(), data, bytes, &param);
  if (UCS_PTR_IS_ERR(status))
    fatal(impl.rank, std::string("network send to rank ") + std::to_string(peer) +
                         " failed: " + ucs_status_string(UCS_PTR_STATUS(status)));
  if (status != nullptr) {
    ++impl.in_flight;
    return false;
  }
  slot.next_free = impl.free_slots;
  impl.free_slots = &slot;
  return true;
}

void Network::receive(void* pending, std::uint64_t length, void* buffer, std::size_t capacity, OnDone done,
                      void* user) noexcept {
  Impl& impl = *impl_;
  auto* op = new RecvOp{buffer, capacity, {}, done, user, &impl};
  if (capacity < length) op->scratch.resize(length);
  impl.received += length;
  ucp_request_param_t param{};
  param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  param.cb.recv_am = on_received;
  param.user_data = op;
  void* into = op->scratch.empty() ? buffer : op->scratch.data();
  const ucs_status_ptr_t status = ucp_am_recv_data_nbx(impl.worker, pending, into, length, &param);
  if (UCS_PTR_IS_ERR(status))
    fatal(impl.rank, std::string("network receive failed: ") + ucs_status_string(UCS_PTR_STATUS(status)));
  if (status != nullptr) {
    ++impl.in_flight;
    return;
  }
  impl.finish(op);
}

// UCX answers the sender of a released rendezvous as if it had been
// received: its send completes with UCS_OK.
void Network::discard(void* pending) noexcept { ucp_am_data_release(impl_->worker, pending); }

bool Network::progress() noexcept { return ucp_worker_progress(impl_->worker) != 0; }

// UCX's wake-up protocol: progress until idle, arm, then poll the fd; arm
// says UCS_ERR_BUSY when events came in between (return: progress them).
bool Network::arm() noexcept {
  Impl& impl = *impl_;
  if (impl.wakeup_fd < 0 || ucp_worker_progress(impl.worker) != 0) return false;
  return ucp_worker_arm(impl.worker) == UCS_OK;  // UCS_ERR_BUSY: traffic came in meanwhile
}

void Network::sleep_until_traffic(long timeout_ns, int also_fd) noexcept {
  pollfd fds[2] = {{impl_->wakeup_fd, POLLIN, 0}, {also_fd, POLLIN, 0}};  // ppoll skips a negative fd
  const timespec timeout{timeout_ns / 1'000'000'000, timeout_ns % 1'000'000'000};
  ::ppoll(fds, 2, &timeout, nullptr);
}

std::uint64_t Network::bytes_sent() const noexcept { return impl_->sent; }
std::uint64_t Network::bytes_received() const noexcept { return impl_->received; }

bool network_built() noexcept { return true; }

}  // namespace shmpi::net
