#include "pmix_info_list.hpp"

#include "launch_error.hpp"

namespace shmpi::launcher {

InfoList::InfoList() : list_(PMIx_Info_list_start()) {
  if (list_ == nullptr) throw LaunchError("PMIx_Info_list_start failed", kExitInternal);
}

InfoList::~InfoList() { PMIx_Info_list_release(list_); }

void InfoList::add_raw(const char* key, const void* value, pmix_data_type_t type) {
  pmix_status_t rc = PMIx_Info_list_add(list_, key, value, type);
  if (rc != PMIX_SUCCESS)
    throw LaunchError(std::string("PMIx_Info_list_add(") + key + "): " + PMIx_Error_string(rc),
                      kExitInternal);
}

InfoList& InfoList::add(const char* key, const std::string& value) {
  add_raw(key, value.c_str(), PMIX_STRING);
  return *this;
}
InfoList& InfoList::add_u32(const char* key, std::uint32_t value) {
  add_raw(key, &value, PMIX_UINT32);
  return *this;
}
InfoList& InfoList::add_u16(const char* key, std::uint16_t value) {
  add_raw(key, &value, PMIX_UINT16);
  return *this;
}
InfoList& InfoList::add_rank(const char* key, pmix_rank_t value) {
  add_raw(key, &value, PMIX_PROC_RANK);
  return *this;
}
InfoList& InfoList::add_bool(const char* key, bool value) {
  add_raw(key, &value, PMIX_BOOL);
  return *this;
}

InfoList& InfoList::add_topology(const char* key, pmix_topology_t& value) {
  add_raw(key, &value, PMIX_TOPO);
  return *this;
}

InfoList& InfoList::add_array(const char* key, InfoList& inner) {
  InfoArray array;
  inner.convert(array);
  add_raw(key, array.raw(), PMIX_DATA_ARRAY);  // deep copy
  return *this;
}

void InfoList::convert(InfoArray& out) {
  pmix_status_t rc = PMIx_Info_list_convert(list_, out.raw());
  if (rc != PMIX_SUCCESS && rc != PMIX_ERR_EMPTY)
    throw LaunchError(std::string("PMIx_Info_list_convert: ") + PMIx_Error_string(rc), kExitInternal);
}

}  // namespace shmpi::launcher
