// PackedBuffer: the temporary buffer of a request whose datatype is not
// contiguous (runtime/packed_transfer.hpp), or the layout the pml moves
// such a request's data with when it needs no buffer. A send's holds the packed bytes
// until the pml is done with them; a receive's takes the bytes and keeps
// what is needed to unpack them into the user's buffer at completion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "pml/run_layout.hpp"

namespace shmpi::datatype {
class Type;
}

namespace shmpi::runtime {

struct PackedBuffer {
  std::vector<std::byte> bytes;
  std::shared_ptr<const datatype::Type> layout;  // kept: the user may free the type's handle meanwhile
  void* unpack_into = nullptr;                   // receive: the user's buffer; nullptr for a send
  std::uint64_t count = 0;                       // receive: elements of `layout` there
  // Zero-copy instead (bytes stays empty): the user's buffer as the pml
  // moves it, read by the peer (send) or written by the pml (receive).
  pml::RunLayout runs;

  bool active() const noexcept { return layout != nullptr; }
};

}  // namespace shmpi::runtime
