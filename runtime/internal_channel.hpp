// Point-to-point steps of the internal exchanges that are not a collective
// over one intracommunicator: between the two groups of an
// intercommunicator, between the leaders of MPI_Intercomm_create over the
// peer communicator, among the members of MPI_Comm_create_group. Messages
// go to world ranks; `source` is our rank as the receivers address us.
//
// Tags of these exchanges live on collective contexts (where user receives,
// and so MPI_ANY_TAG, never look) and are negative (the internal
// collectives use small positive tags), so they can match nothing else.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/context.hpp"

namespace shmpi::runtime {

// Tags of the intercommunicator exchanges. MPI_Comm_create_group and
// MPI_Intercomm_create take a tag from the user: user_tag_channel() maps
// it below kUserTagBase.
inline constexpr std::int32_t kInterAgreeTag = -2;
inline constexpr std::int32_t kInterBarrierTag = -3;
inline constexpr std::int32_t kInterBcastTag = -4;
inline constexpr std::int32_t kInterReduceTag = -5;
inline constexpr std::int32_t kInterAllreduceTag = -6;
inline constexpr std::int32_t kUserTagBase = -16;
inline constexpr std::int32_t internal_tag_for(std::int32_t user_tag) noexcept {
  return kUserTagBase - user_tag % (INT32_MAX + kUserTagBase);
}

class InternalChannel {
 public:
  InternalChannel(Context& context, std::uint32_t context_id, std::int32_t source, std::int32_t tag,
                  const char* call) noexcept
      : context_(context), id_(context_id), source_(source), tag_(tag), call_(call) {}

  void send(std::uint32_t world_to, const void* buffer, std::size_t bytes) noexcept {
    pml::Request request;
    context_.pml().start_send(request, world_to, pml::Envelope{id_, source_, tag_}, buffer, bytes);
    wait(request, world_to, bytes);
  }
  // Receives from the process that addresses itself as `from` (world rank
  // `world_from`, for the status page).
  void recv(std::int32_t from, std::uint32_t world_from, void* buffer, std::size_t bytes) noexcept {
    pml::Request request;
    context_.pml().start_recv(request, pml::Envelope{id_, from, tag_}, buffer, bytes);
    wait(request, world_from, bytes);
  }
  // Both at once, the receive posted first.
  void sendrecv(std::uint32_t world_peer, std::int32_t peer_source, const void* out, std::size_t out_bytes, void* in,
                std::size_t in_bytes) noexcept {
    pml::Request receive;
    pml::Request send;
    context_.pml().start_recv(receive, pml::Envelope{id_, peer_source, tag_}, in, in_bytes);
    context_.pml().start_send(send, world_peer, pml::Envelope{id_, source_, tag_}, out, out_bytes);
    wait(send, world_peer, out_bytes);
    wait(receive, world_peer, in_bytes);
  }

 private:
  void wait(pml::Request& request, std::uint32_t world_peer, std::size_t bytes) noexcept {
    context_.wait(request, BlockedCall{call_, static_cast<std::int32_t>(world_peer), tag_, bytes, id_});
  }

  Context& context_;
  std::uint32_t id_;
  std::int32_t source_;
  std::int32_t tag_;
  const char* call_;
};

}  // namespace shmpi::runtime
