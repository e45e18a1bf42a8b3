// Attribute caching (MPI-4.1 section 7.7): keyvals with their copy and
// delete callbacks, the attributes one object holds, and the callbacks'
// rules: setting over an attribute deletes the old value first, a
// duplicate gets what the copy callbacks hand out, freeing an object runs
// every delete callback (newest attribute first). A callback that fails
// stops the operation and its code is returned.
//
// Communicators and datatypes are both int handles in shmpi, so one
// callback type serves both (MPI_Comm_copy_attr_function and
// MPI_Type_copy_attr_function are the same C type).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mpi.h"
#include "runtime/stable_slots.hpp"

namespace shmpi::runtime {

enum class AttrKind { Comm, Type };

struct Keyval {
  AttrKind kind;
  MPI_Comm_copy_attr_function* copy;      // never null (null functions are substituted)
  MPI_Comm_delete_attr_function* remove;  // may be null: nothing to do
  void* extra_state;
  bool freed = false;     // MPI_*_free_keyval was called: no new attributes
  std::size_t holders = 0;  // attributes set with it; it lives until this is 0 and freed
};

// The attributes of one object, in the order they were first set.
using AttributeList = std::vector<std::pair<int, void*>>;

// Where an object's attributes are now, or nullptr once it is gone. A
// callback may call MPI (set or delete other attributes of the same
// object, create objects that move the list), so the list is looked up
// again after every callback and never held across one.
using AttributesOf = std::function<AttributeList*()>;

class KeyvalTable {
 public:
  static constexpr int kFirstUserKeyval = 16;  // below: the predefined MPI_TAG_UB..MPI_LASTUSEDCODE

  int create(AttrKind kind, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
             void* extra_state);
  // A live keyval of `kind` (not freed), or nullptr.
  Keyval* find(int keyval, AttrKind kind) noexcept;
  // MPI_*_free_keyval: false if it is not a live keyval of `kind`.
  bool release(int keyval, AttrKind kind) noexcept;

  // Attribute operations on the attributes of object `handle`. Each
  // returns MPI_SUCCESS or the code a callback returned; the keyval must
  // have been checked with find() (or be held by the list).
  int set(const AttributesOf& list, int handle, int keyval, void* value);
  // Deletes `keyval`'s attribute; `found` says whether there was one.
  int erase(const AttributesOf& list, int handle, int keyval, bool& found);
  static void* const* get(const AttributeList& list, int keyval) noexcept;
  // Fills `to` (empty) with the copies the callbacks hand out for `from`.
  int copy_all(const AttributeList& from, int old_handle, AttributeList& to);
  // Deletes every attribute, newest first; stops at a failing callback
  // (the attributes not yet deleted stay).
  int erase_all(const AttributesOf& list, int handle);

 private:
  Keyval* slot(int keyval) noexcept;
  void drop_holder(int keyval) noexcept;
  StableSlots<std::optional<Keyval>> keyvals_;  // index = keyval - kFirstUserKeyval; never moves
};

// Attributes of datatypes live beside the datatype table, keyed by handle,
// so the datatype code needs to know nothing of them (runtime/attribute_hooks.hpp).
using TypeAttributes = std::unordered_map<MPI_Datatype, AttributeList>;

}  // namespace shmpi::runtime
