// MPI entry points: attribute caching on communicators and datatypes
// (runtime/attributes.hpp), the predefined communicator attributes
// (MPI_TAG_UB ...), the MPI-1 names (MPI_Keyval_create, MPI_Attr_*), the
// predefined callbacks, and the hooks dup and free call.
//
// User callbacks may call MPI, on the same object too (a delete callback
// that deletes another attribute): the table looks the object's list up
// again after each callback (AttributesOf), never holding it across one.
#include <utility>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/attributes.hpp"

using namespace shmpi::runtime;

namespace {

bool is_predefined_keyval(int keyval) noexcept { return keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE; }

void* predefined_value(Context& context, int keyval) noexcept {
  PredefinedAttributes& p = context.objects().predefined;
  switch (keyval) {
    case MPI_TAG_UB: return &p.tag_ub;
    case MPI_HOST: return &p.host;
    case MPI_IO: return &p.io;
    case MPI_WTIME_IS_GLOBAL: return &p.wtime_is_global;
    case MPI_APPNUM: return &p.appnum;
    case MPI_UNIVERSE_SIZE: return &p.universe_size;
    default: return &p.lastusedcode;
  }
}

const char* kind_name(AttrKind kind) { return kind == AttrKind::Comm ? "communicator" : "datatype"; }

int invalid_keyval(Context& context, const Communicator* c, const char* call, int keyval, AttrKind kind) {
  return raise_error(context, c, call, MPI_ERR_KEYVAL,
                     "invalid " + std::string(kind_name(kind)) + " keyval " + std::to_string(keyval));
}

int callback_failed(Context& context, const Communicator* c, const char* call, int keyval, int rc) {
  return raise_error(context, c, call, rc,
                     "an attribute callback of keyval " + std::to_string(keyval) + " returned error " +
                         std::to_string(rc));
}

// Runs `f` on the attributes of `handle` (which must exist), found again
// at each use; a datatype's empty list is dropped afterwards.
template <class F>
int on_list(Context& context, AttrKind kind, int handle, F&& f) {
  if (kind == AttrKind::Comm) {
    return f(AttributesOf([&context, handle]() -> AttributeList* {
      Communicator* c = context.communicator(handle);
      return c != nullptr ? &c->attributes : nullptr;
    }));
  }
  // Map nodes do not move: the list stays where it is until erased here.
  TypeAttributes& all = context.objects().type_attributes;
  const int rc = f(AttributesOf([&all, handle]() -> AttributeList* { return &all[handle]; }));
  if (auto it = all.find(handle); it != all.end() && it->second.empty()) all.erase(it);
  return rc;
}

// The object `handle` of `kind` exists; else raises its invalid-handle error.
int check_object(Context& context, const char* call, AttrKind kind, int handle, const Communicator*& c) {
  c = nullptr;
  if (kind == AttrKind::Comm) {
    c = context.communicator(handle);
    return c == nullptr ? invalid_communicator(context, call, handle) : MPI_SUCCESS;
  }
  if (context.datatypes().find(handle) == nullptr)
    return raise_error(context, nullptr, call, MPI_ERR_TYPE, "invalid datatype " + std::to_string(handle));
  return MPI_SUCCESS;
}

int create_keyval(const char* call, AttrKind kind, MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  if (keyval == nullptr) return raise_error(context, nullptr, call, MPI_ERR_ARG, "null keyval pointer");
  *keyval = context.objects().keyvals.create(kind, copy, remove, extra_state);
  return MPI_SUCCESS;
}

int free_keyval(const char* call, AttrKind kind, int* keyval) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  if (keyval == nullptr) return raise_error(context, nullptr, call, MPI_ERR_ARG, "null keyval pointer");
  if (is_predefined_keyval(*keyval))
    return raise_error(context, nullptr, call, MPI_ERR_KEYVAL, "predefined keyval " + std::to_string(*keyval) +
                                                                   " cannot be freed");
  if (!context.objects().keyvals.release(*keyval, kind)) return invalid_keyval(context, nullptr, call, *keyval, kind);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(const char* call, AttrKind kind, int handle, int keyval, void* value) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = check_object(context, call, kind, handle, c)) return rc;
  if (kind == AttrKind::Comm && is_predefined_keyval(keyval))
    return raise_error(context, c, call, MPI_ERR_KEYVAL, "predefined attribute " + std::to_string(keyval) +
                                                             " cannot be set");
  KeyvalTable& keyvals = context.objects().keyvals;
  if (keyvals.find(keyval, kind) == nullptr) return invalid_keyval(context, c, call, keyval, kind);
  const int rc = on_list(context, kind, handle,
                         [&](const AttributesOf& list) { return keyvals.set(list, handle, keyval, value); });
  if (rc != MPI_SUCCESS) return callback_failed(context, context.communicator(handle), call, keyval, rc);
  return MPI_SUCCESS;
}

int get_attr(const char* call, AttrKind kind, int handle, int keyval, void* value, int* flag) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = check_object(context, call, kind, handle, c)) return rc;
  if (value == nullptr || flag == nullptr)
    return raise_error(context, c, call, MPI_ERR_ARG, "null attribute_val or flag pointer");
  if (kind == AttrKind::Comm && is_predefined_keyval(keyval)) {
    *static_cast<void**>(value) = predefined_value(context, keyval);
    *flag = 1;
    return MPI_SUCCESS;
  }
  // A freed keyval still names the attributes set with it.
  const Keyval* k = context.objects().keyvals.find(keyval, kind);
  const AttributeList* list = nullptr;
  if (kind == AttrKind::Comm) {
    list = &c->attributes;
  } else if (auto it = context.objects().type_attributes.find(handle); it != context.objects().type_attributes.end()) {
    list = &it->second;
  }
  void* const* found = list != nullptr ? KeyvalTable::get(*list, keyval) : nullptr;
  if (k == nullptr && found == nullptr) return invalid_keyval(context, c, call, keyval, kind);
  *flag = found != nullptr;
  if (found != nullptr) *static_cast<void**>(value) = *found;
  return MPI_SUCCESS;
}

int delete_attr(const char* call, AttrKind kind, int handle, int keyval) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = check_object(context, call, kind, handle, c)) return rc;
  if (kind == AttrKind::Comm && is_predefined_keyval(keyval))
    return raise_error(context, c, call, MPI_ERR_KEYVAL, "predefined attribute " + std::to_string(keyval) +
                                                             " cannot be deleted");
  bool found = false;
  const int rc = on_list(context, kind, handle, [&](const AttributesOf& list) {
    return context.objects().keyvals.erase(list, handle, keyval, found);
  });
  c = context.communicator(handle);
  if (rc != MPI_SUCCESS) return callback_failed(context, kind == AttrKind::Comm ? c : nullptr, call, keyval, rc);
  if (!found) return invalid_keyval(context, kind == AttrKind::Comm ? c : nullptr, call, keyval, kind);
  return MPI_SUCCESS;
}

}  // namespace

namespace shmpi::runtime {

int copy_comm_attributes(Context& context, MPI_Comm from, Communicator& to) {
  const AttributeList source = context.communicator(from)->attributes;  // a copy: callbacks may move it
  to.attributes.clear();
  return context.objects().keyvals.copy_all(source, from, to.attributes);
}

int erase_comm_attributes(Context& context, MPI_Comm comm) {
  return on_list(context, AttrKind::Comm, comm,
                 [&](const AttributesOf& list) { return context.objects().keyvals.erase_all(list, comm); });
}

int copy_type_attributes(Context& context, MPI_Datatype from, MPI_Datatype to) {
  auto it = context.objects().type_attributes.find(from);
  if (it == context.objects().type_attributes.end()) return MPI_SUCCESS;
  const AttributeList source = it->second;
  AttributeList copied;
  const int rc = context.objects().keyvals.copy_all(source, from, copied);
  if (!copied.empty()) context.objects().type_attributes[to] = std::move(copied);
  return rc;
}

int erase_type_attributes(Context& context, MPI_Datatype type) {
  if (context.objects().type_attributes.count(type) == 0) return MPI_SUCCESS;
  return on_list(context, AttrKind::Type, type,
                 [&](const AttributesOf& list) { return context.objects().keyvals.erase_all(list, type); });
}

}  // namespace shmpi::runtime

extern "C" int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove,
                                       int* keyval, void* extra_state) {
  return create_keyval("MPI_Comm_create_keyval", AttrKind::Comm, copy, remove, keyval, extra_state);
}
extern "C" int PMPI_Comm_free_keyval(int* keyval) {
  return free_keyval("MPI_Comm_free_keyval", AttrKind::Comm, keyval);
}
extern "C" int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void* value) {
  return set_attr("MPI_Comm_set_attr", AttrKind::Comm, comm, keyval, value);
}
extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
  return get_attr("MPI_Comm_get_attr", AttrKind::Comm, comm, keyval, value, flag);
}
extern "C" int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
  return delete_attr("MPI_Comm_delete_attr", AttrKind::Comm, comm, keyval);
}

extern "C" int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* copy, MPI_Type_delete_attr_function* remove,
                                       int* keyval, void* extra_state) {
  return create_keyval("MPI_Type_create_keyval", AttrKind::Type, copy, remove, keyval, extra_state);
}
extern "C" int PMPI_Type_free_keyval(int* keyval) {
  return free_keyval("MPI_Type_free_keyval", AttrKind::Type, keyval);
}
extern "C" int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void* value) {
  return set_attr("MPI_Type_set_attr", AttrKind::Type, type, keyval, value);
}
extern "C" int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void* value, int* flag) {
  return get_attr("MPI_Type_get_attr", AttrKind::Type, type, keyval, value, flag);
}
extern "C" int PMPI_Type_delete_attr(MPI_Datatype type, int keyval) {
  return delete_attr("MPI_Type_delete_attr", AttrKind::Type, type, keyval);
}

// MPI-1 names.
extern "C" int PMPI_Keyval_create(MPI_Copy_function* copy, MPI_Delete_function* remove, int* keyval,
                                  void* extra_state) {
  return create_keyval("MPI_Keyval_create", AttrKind::Comm, copy, remove, keyval, extra_state);
}
extern "C" int PMPI_Keyval_free(int* keyval) { return free_keyval("MPI_Keyval_free", AttrKind::Comm, keyval); }
extern "C" int PMPI_Attr_put(MPI_Comm comm, int keyval, void* value) {
  return set_attr("MPI_Attr_put", AttrKind::Comm, comm, keyval, value);
}
extern "C" int PMPI_Attr_get(MPI_Comm comm, int keyval, void* value, int* flag) {
  return get_attr("MPI_Attr_get", AttrKind::Comm, comm, keyval, value, flag);
}
extern "C" int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
  return delete_attr("MPI_Attr_delete", AttrKind::Comm, comm, keyval);
}

// The predefined callbacks: NULL_COPY copies nothing, DUP copies the value,
// NULL_DELETE does nothing.
extern "C" int PMPI_COMM_NULL_COPY_FN(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
extern "C" int PMPI_COMM_DUP_FN(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
extern "C" int PMPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void*, void*) { return MPI_SUCCESS; }
extern "C" int PMPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
extern "C" int PMPI_TYPE_DUP_FN(MPI_Datatype, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
extern "C" int PMPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void*, void*) { return MPI_SUCCESS; }

SHMPI_PMPI_ALIAS(Comm_create_keyval)
SHMPI_PMPI_ALIAS(Comm_free_keyval)
SHMPI_PMPI_ALIAS(Comm_set_attr)
SHMPI_PMPI_ALIAS(Comm_get_attr)
SHMPI_PMPI_ALIAS(Comm_delete_attr)
SHMPI_PMPI_ALIAS(Type_create_keyval)
SHMPI_PMPI_ALIAS(Type_free_keyval)
SHMPI_PMPI_ALIAS(Type_set_attr)
SHMPI_PMPI_ALIAS(Type_get_attr)
SHMPI_PMPI_ALIAS(Type_delete_attr)
SHMPI_PMPI_ALIAS(Keyval_create)
SHMPI_PMPI_ALIAS(Keyval_free)
SHMPI_PMPI_ALIAS(Attr_put)
SHMPI_PMPI_ALIAS(Attr_get)
SHMPI_PMPI_ALIAS(Attr_delete)
SHMPI_PMPI_ALIAS(COMM_NULL_COPY_FN)
SHMPI_PMPI_ALIAS(COMM_DUP_FN)
SHMPI_PMPI_ALIAS(COMM_NULL_DELETE_FN)
SHMPI_PMPI_ALIAS(TYPE_NULL_COPY_FN)
SHMPI_PMPI_ALIAS(TYPE_DUP_FN)
SHMPI_PMPI_ALIAS(TYPE_NULL_DELETE_FN)
