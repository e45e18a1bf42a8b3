// MPI entry points: info objects (runtime/info.hpp). Values come back
// truncated to the caller's length, as MPI_Info_get specifies.
#include <algorithm>
#include <cstring>
#include <new>

#include "runtime/api.hpp"
#include "runtime/info.hpp"

using namespace shmpi::runtime;

namespace {

InfoStore* info_or_raise(Context& context, const char* call, MPI_Info handle, int& rc) {
  InfoStore* info = context.objects().infos.find(handle);
  if (info == nullptr)
    rc = raise_error(context, nullptr, call, MPI_ERR_INFO, "invalid info object " + std::to_string(handle));
  return info;
}

int check_key(Context& context, const char* call, const char* key) {
  if (auto why = invalid_info_key(key)) return raise_error(context, nullptr, call, MPI_ERR_INFO_KEY, *why);
  return MPI_SUCCESS;
}

int null_out(Context& context, const char* call, const char* what) {
  return raise_error(context, nullptr, call, MPI_ERR_ARG, std::string("null ") + what + " pointer");
}

// Copies at most `room` characters of `value` and a terminating NUL (the
// caller's buffer holds room + 1).
void copy_out(const std::string& value, char* out, std::size_t room) {
  const std::size_t n = std::min(value.size(), room);
  std::memcpy(out, value.data(), n);
  out[n] = '\0';
}

}  // namespace

extern "C" int PMPI_Info_create(MPI_Info* info) {
  constexpr const char* kCall = "MPI_Info_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (info == nullptr) return null_out(context, kCall, "info");
  try {
    *info = context.objects().infos.add(InfoStore{});
  } catch (const std::bad_alloc&) {
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_set(MPI_Info info, const char* key, const char* value) {
  constexpr const char* kCall = "MPI_Info_set";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if ((rc = check_key(context, kCall, key))) return rc;
  if (auto why = invalid_info_value(value)) return raise_error(context, nullptr, kCall, MPI_ERR_INFO_VALUE, *why);
  try {
    store->set(key, value);
  } catch (const std::bad_alloc&) {
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  constexpr const char* kCall = "MPI_Info_get";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if ((rc = check_key(context, kCall, key))) return rc;
  if (valuelen < 0)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "negative valuelen " + std::to_string(valuelen));
  if (flag == nullptr || value == nullptr) return null_out(context, kCall, "value or flag");
  const std::string* found = store->get(key);
  *flag = found != nullptr;
  if (found != nullptr) copy_out(*found, value, static_cast<std::size_t>(valuelen));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  constexpr const char* kCall = "MPI_Info_get_valuelen";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if ((rc = check_key(context, kCall, key))) return rc;
  if (flag == nullptr || valuelen == nullptr) return null_out(context, kCall, "valuelen or flag");
  const std::string* found = store->get(key);
  *flag = found != nullptr;
  if (found != nullptr) *valuelen = static_cast<int>(found->size());
  return MPI_SUCCESS;
}

// MPI-4: *buflen in is the buffer's size, out the size the value needs
// (with its NUL); buflen 0 only asks.
extern "C" int PMPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  constexpr const char* kCall = "MPI_Info_get_string";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if ((rc = check_key(context, kCall, key))) return rc;
  if (flag == nullptr || buflen == nullptr) return null_out(context, kCall, "buflen or flag");
  if (*buflen < 0) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "negative buflen");
  if (*buflen > 0 && value == nullptr) return null_out(context, kCall, "value");
  const std::string* found = store->get(key);
  *flag = found != nullptr;
  if (found == nullptr) return MPI_SUCCESS;
  if (*buflen > 0) copy_out(*found, value, static_cast<std::size_t>(*buflen - 1));
  *buflen = static_cast<int>(found->size()) + 1;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_delete(MPI_Info info, const char* key) {
  constexpr const char* kCall = "MPI_Info_delete";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if ((rc = check_key(context, kCall, key))) return rc;
  if (!store->erase(key))
    return raise_error(context, nullptr, kCall, MPI_ERR_INFO_NOKEY, std::string("no key '") + key + "'");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  constexpr const char* kCall = "MPI_Info_get_nkeys";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if (nkeys == nullptr) return null_out(context, kCall, "nkeys");
  *nkeys = static_cast<int>(store->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  constexpr const char* kCall = "MPI_Info_get_nthkey";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if (n < 0 || static_cast<std::size_t>(n) >= store->size())
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG,
                       "key number " + std::to_string(n) + " (the info has " + std::to_string(store->size()) +
                           " keys)");
  if (key == nullptr) return null_out(context, kCall, "key");
  copy_out(store->key(static_cast<std::size_t>(n)), key, MPI_MAX_INFO_KEY);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  constexpr const char* kCall = "MPI_Info_dup";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const InfoStore* store = info_or_raise(context, kCall, info, rc);
  if (store == nullptr) return rc;
  if (newinfo == nullptr) return null_out(context, kCall, "newinfo");
  try {
    *newinfo = context.objects().infos.add(*store);
  } catch (const std::bad_alloc&) {
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Info_free(MPI_Info* info) {
  constexpr const char* kCall = "MPI_Info_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (info == nullptr) return null_out(context, kCall, "info");
  if (*info == MPI_INFO_ENV) return raise_error(context, nullptr, kCall, MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed");
  if (!context.objects().infos.free(*info))
    return raise_error(context, nullptr, kCall, MPI_ERR_INFO, "invalid info object " + std::to_string(*info));
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Info_create)
SHMPI_PMPI_ALIAS(Info_set)
SHMPI_PMPI_ALIAS(Info_get)
SHMPI_PMPI_ALIAS(Info_get_valuelen)
SHMPI_PMPI_ALIAS(Info_get_string)
SHMPI_PMPI_ALIAS(Info_delete)
SHMPI_PMPI_ALIAS(Info_get_nkeys)
SHMPI_PMPI_ALIAS(Info_get_nthkey)
SHMPI_PMPI_ALIAS(Info_dup)
SHMPI_PMPI_ALIAS(Info_free)
