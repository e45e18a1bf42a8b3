// What the pml's files do to requests in common (internal to the pml).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

#include "pml/matcher.hpp"
#include "pml/request.hpp"

namespace shmpi::pml {

// A request's address is its cookie in control records (see request.hpp).
inline std::uint64_t cookie_of(const Request& request) noexcept { return reinterpret_cast<std::uintptr_t>(&request); }
inline Request& request_of(std::uint64_t cookie) noexcept { return *reinterpret_cast<Request*>(cookie); }

// A receive has all of its message: complete it, truncated if the message
// was longer than the buffer.
inline void finish_receive(Request& request) noexcept {
  const std::uint64_t sent = request.status.sent_bytes;
  request.status.bytes = std::min<std::uint64_t>(sent, request.capacity);
  request.status.result = sent > request.capacity ? Completion::Truncated : Completion::Ok;
  request.complete = true;
}

// Copies `payload`, which belongs at message offset `offset`, into the part
// of the receive buffer that exists (a truncated receive keeps its prefix).
inline void copy_into(Request& request, std::uint64_t offset, std::span<const std::byte> payload) noexcept {
  if (request.layout != nullptr) [[unlikely]] {
    scatter_into(*request.layout, request.capacity, offset, payload);
    return;
  }
  if (offset >= request.capacity || payload.empty()) return;
  const std::size_t n = std::min<std::size_t>(payload.size(), request.capacity - offset);
  std::memcpy(request.recv_buffer + offset, payload.data(), n);
}

// Copies bytes [offset, offset + bytes) of a send's payload into a record at `out`.
inline void copy_out(const Request& request, std::uint64_t offset, std::byte* out, std::size_t bytes) noexcept {
  if (request.layout == nullptr) [[likely]] {
    std::memcpy(out, request.send_buffer + offset, bytes);
  } else {
    gather_from(*request.layout, offset, out, bytes);
  }
}

// A receive matched a message from `envelope` of `length` bytes.
inline void describe(Request& request, const Envelope& envelope, std::uint64_t length) noexcept {
  request.status.source = envelope.source;
  request.status.tag = envelope.tag;
  request.status.sent_bytes = length;
}

// Bytes of a matched message that land in the receive buffer.
inline std::size_t bytes_to_receive(const Request& request) noexcept {
  return std::min<std::uint64_t>(request.status.sent_bytes, request.capacity);
}

}  // namespace shmpi::pml
