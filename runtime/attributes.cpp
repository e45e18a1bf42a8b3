#include "runtime/attributes.hpp"

#include <algorithm>

namespace shmpi::runtime {
namespace {

int never_copy(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

auto find_in(AttributeList& list, int keyval) {
  return std::find_if(list.begin(), list.end(), [keyval](const auto& a) { return a.first == keyval; });
}

}  // namespace

int KeyvalTable::create(AttrKind kind, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                        void* extra_state) {
  std::size_t i = 0;
  while (i < keyvals_.size() && keyvals_[i]) ++i;
  if (i == keyvals_.size()) keyvals_.emplace_back();
  keyvals_[i] = Keyval{kind, copy != nullptr ? copy : never_copy, remove, extra_state};
  return static_cast<int>(i) + kFirstUserKeyval;
}

Keyval* KeyvalTable::slot(int keyval) noexcept {
  if (keyval < kFirstUserKeyval) return nullptr;
  const auto i = static_cast<std::size_t>(keyval - kFirstUserKeyval);
  return i < keyvals_.size() && keyvals_[i] ? &*keyvals_[i] : nullptr;
}

Keyval* KeyvalTable::find(int keyval, AttrKind kind) noexcept {
  Keyval* k = slot(keyval);
  return k != nullptr && k->kind == kind && !k->freed ? k : nullptr;
}

bool KeyvalTable::release(int keyval, AttrKind kind) noexcept {
  Keyval* k = find(keyval, kind);
  if (k == nullptr) return false;
  k->freed = true;
  if (k->holders == 0) keyvals_[static_cast<std::size_t>(keyval - kFirstUserKeyval)].reset();
  return true;
}

void KeyvalTable::drop_holder(int keyval) noexcept {
  Keyval* k = slot(keyval);
  if (k != nullptr && --k->holders == 0 && k->freed)
    keyvals_[static_cast<std::size_t>(keyval - kFirstUserKeyval)].reset();
}

int KeyvalTable::set(const AttributesOf& list_of, int handle, int keyval, void* value) {
  AttributeList* list = list_of();
  if (list == nullptr) return MPI_SUCCESS;
  if (const auto it = find_in(*list, keyval); it != list->end()) {
    const Keyval k = *slot(keyval);
    if (k.remove != nullptr)
      if (int rc = k.remove(handle, keyval, it->second, k.extra_state); rc != MPI_SUCCESS) return rc;
    list = list_of();  // the callback may have moved it, or deleted this attribute
    if (list == nullptr) return MPI_SUCCESS;
    if (const auto again = find_in(*list, keyval); again != list->end()) {
      again->second = value;
      return MPI_SUCCESS;
    }
  }
  list->emplace_back(keyval, value);
  ++slot(keyval)->holders;
  return MPI_SUCCESS;
}

int KeyvalTable::erase(const AttributesOf& list_of, int handle, int keyval, bool& found) {
  AttributeList* list = list_of();
  const auto it = list != nullptr ? find_in(*list, keyval) : AttributeList::iterator{};
  found = list != nullptr && it != list->end();
  if (!found) return MPI_SUCCESS;
  const Keyval k = *slot(keyval);  // a copy: the callback may free the keyval
  if (k.remove != nullptr)
    if (int rc = k.remove(handle, keyval, it->second, k.extra_state); rc != MPI_SUCCESS) return rc;
  list = list_of();  // the callback may have deleted other attributes, or this one
  if (list == nullptr) return MPI_SUCCESS;
  if (const auto again = find_in(*list, keyval); again != list->end()) {
    list->erase(again);
    drop_holder(keyval);
  }
  return MPI_SUCCESS;
}

void* const* KeyvalTable::get(const AttributeList& list, int keyval) noexcept {
  for (const auto& a : list)
    if (a.first == keyval) return &a.second;
  return nullptr;
}

int KeyvalTable::copy_all(const AttributeList& from, int old_handle, AttributeList& to) {
  for (const auto& [keyval, value] : from) {
    const Keyval& k = *slot(keyval);
    void* copied = nullptr;
    int flag = 0;
    if (int rc = k.copy(old_handle, keyval, k.extra_state, value, &copied, &flag); rc != MPI_SUCCESS) return rc;
    if (flag == 0) continue;
    to.emplace_back(keyval, copied);
    ++slot(keyval)->holders;  // looked up again: the callback may have created keyvals
  }
  return MPI_SUCCESS;
}

int KeyvalTable::erase_all(const AttributesOf& list_of, int handle) {
  for (AttributeList* list = list_of(); list != nullptr && !list->empty(); list = list_of()) {
    bool found = false;
    if (int rc = erase(list_of, handle, list->back().first, found); rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
