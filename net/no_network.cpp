// Network in a build without UCX: a job with peers on other nodes stops at
// start-up with one line saying why.
#include "net/network.hpp"

namespace shmpi::net {

struct Network::Impl {};

Network::Network(std::uint32_t, std::uint32_t) {
  throw NetworkError("this job has ranks on other nodes, but this shmpi was built without UCX "
                     "(install libucx-dev and rebuild; SHMPI_WITH_UCX)");
}
Network::~Network() = default;
void Network::set_receiver(OnArrival, void*) noexcept {}
std::string Network::address() const { return {}; }
void Network::add_peer(std::uint32_t, const std::string&) {}
void Network::connect(std::uint32_t) {}
bool Network::send(std::uint32_t, std::span<const std::byte>, const void*, std::size_t, OnDone, void*) noexcept {
  return true;
}
void Network::receive(void*, std::uint64_t, void*, std::size_t, OnDone, void*) noexcept {}
void Network::discard(void*) noexcept {}
bool Network::progress() noexcept { return false; }
bool Network::arm() noexcept { return false; }
void Network::sleep_until_traffic(long, int) noexcept {}
std::uint64_t Network::bytes_sent() const noexcept { return 0; }
std::uint64_t Network::bytes_received() const noexcept { return 0; }
bool network_built() noexcept { return false; }

}  // namespace shmpi::net
