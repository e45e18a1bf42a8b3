// InfoList / InfoArray: RAII over PMIx's info-list builder, so job info is
// assembled without manual PMIX_INFO_CREATE / PMIX_INFO_FREE bookkeeping.
#pragma once

#include <pmix.h>

#include <cstdint>
#include <string>

namespace shmpi::launcher {

// A finished, contiguous pmix_info_t array (owned).
class InfoArray {
 public:
  InfoArray() { PMIX_DATA_ARRAY_CONSTRUCT(&array_, 0, PMIX_INFO); }
  InfoArray(const InfoArray&) = delete;
  InfoArray& operator=(const InfoArray&) = delete;
  ~InfoArray() { PMIx_Data_array_destruct(&array_); }

  pmix_info_t* data() noexcept { return static_cast<pmix_info_t*>(array_.array); }
  std::size_t size() const noexcept { return array_.size; }
  pmix_data_array_t* raw() noexcept { return &array_; }

 private:
  pmix_data_array_t array_;
};

// A growing list of (key, value); every add() copies its value.
class InfoList {
 public:
  InfoList();
  InfoList(const InfoList&) = delete;
  InfoList& operator=(const InfoList&) = delete;
  ~InfoList();

  InfoList& add(const char* key, const std::string& value);
  InfoList& add_u32(const char* key, std::uint32_t value);
  InfoList& add_u16(const char* key, std::uint16_t value);
  InfoList& add_rank(const char* key, pmix_rank_t value);
  InfoList& add_bool(const char* key, bool value);
  InfoList& add_topology(const char* key, pmix_topology_t& value);
  // Adds `inner` as one value of type PMIX_DATA_ARRAY (e.g. PMIX_PROC_DATA).
  InfoList& add_array(const char* key, InfoList& inner);

  // Copies the list's content into `out`, which must be freshly constructed.
  // Throws LaunchError on failure.
  void convert(InfoArray& out);

 private:
  void add_raw(const char* key, const void* value, pmix_data_type_t type);
  void* list_;
};

}  // namespace shmpi::launcher
