// PmixStore: the KvStore of a rank started by a PMIx launcher (shmpirun,
// Open MPI's mpirun, Slurm's srun --mpi=pmix).
#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/kv_store.hpp"
#include "runtime/singleton_store.hpp"

namespace shmpi::runtime {
namespace {

std::string pmix_error(const char* call, pmix_status_t rc) {
  return std::string(call) + " failed: " + PMIx_Error_string(rc) + " (" + std::to_string(rc) + ")";
}

class PmixStore final : public KvStore {
 public:
  PmixStore() {
    pmix_status_t rc = PMIx_Init(&me_, nullptr, 0);
    if (rc != PMIX_SUCCESS) {
      // Do not PMIx_Finalize here: libpmix crashes doing so after a failed init.
      throw WireUpError(pmix_error("PMIx_Init", rc) +
                        "; launcher variables are set but its PMIx server cannot be reached "
                        "(unset the PMIX_* variables to run as a singleton)");
    }
    size_ = job_value(PMIX_JOB_SIZE);
    local_size_ = job_value(PMIX_LOCAL_SIZE, size_);
  }

  std::uint32_t rank() const override { return me_.rank; }
  std::uint32_t size() const override { return size_; }
  std::uint32_t local_size() const override { return local_size_; }

  void put(std::string_view key, std::string_view value) override { put_in(PMIX_LOCAL, key, value); }
  void put_global(std::string_view key, std::string_view value) override { put_in(PMIX_GLOBAL, key, value); }

  // Ranks on our node: those with our PMIX_HOSTNAME (shmpirun and Slurm
  // give it per rank), else those in PMIX_LOCAL_PEERS, else all.
  std::vector<bool> on_this_node() override {
    std::vector<bool> local(size_, true);
    const std::string mine = optional_string(me_.rank, PMIX_HOSTNAME);
    if (!mine.empty()) {
      for (std::uint32_t r = 0; r < size_; ++r) local[r] = optional_string(r, PMIX_HOSTNAME) == mine;
      return local;
    }
    const std::string peers = optional_string(PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS);
    if (peers.empty()) return local;
    local.assign(size_, false);
    for (const char* at = peers.c_str(); *at != '\0';) {
      char* end = nullptr;
      const unsigned long r = std::strtoul(at, &end, 10);
      if (end == at) break;
      if (r < size_) local[r] = true;
      at = *end == ',' ? end + 1 : end;
    }
    return local;
  }

  void fence() override {
    pmix_status_t rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) throw WireUpError(pmix_error("PMIx_Commit", rc));
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(nullptr, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS)
      throw WireUpError(pmix_error("PMIx_Fence", rc) + " (did another rank die during start-up?)");
  }

  std::string get(std::uint32_t rank, std::string_view key) override {
    pmix_proc_t peer;
    PMIX_PROC_LOAD(&peer, me_.nspace, rank);
    const std::string k(key);
    pmix_value_t* value = nullptr;
    pmix_status_t rc = PMIx_Get(&peer, k.c_str(), nullptr, 0, &value);
    if (rc != PMIX_SUCCESS || value == nullptr || value->type != PMIX_STRING)
      throw WireUpError(pmix_error("PMIx_Get", rc) + " for key " + k + " of rank " + std::to_string(rank));
    std::string result = value->data.string;
    PMIX_VALUE_RELEASE(value);
    return result;
  }

  void finalize() override { PMIx_Finalize(nullptr, 0); }

 protected:
  void request_abort(int code, const std::string& message) override {
    PMIx_Abort(code, message.c_str(), nullptr, 0);
  }

 private:
  // A job-level uint32 value; `fallback` when the launcher did not set it,
  // or throws when there is no fallback (0).
  std::uint32_t job_value(const char* key, std::uint32_t fallback = 0) {
    pmix_proc_t job;
    PMIX_PROC_LOAD(&job, me_.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t* value = nullptr;
    pmix_status_t rc = PMIx_Get(&job, key, nullptr, 0, &value);
    std::uint32_t result = fallback;
    if (rc == PMIX_SUCCESS && value != nullptr && value->type == PMIX_UINT32) result = value->data.uint32;
    if (value != nullptr) PMIX_VALUE_RELEASE(value);
    if (result == 0)
      throw WireUpError(std::string("the launcher's PMIx server does not provide ") + key +
                        ", which shmpi needs");
    return result;
  }

  void put_in(pmix_scope_t scope, std::string_view key, std::string_view value) {
    const std::string k(key);
    std::string v(value);
    pmix_value_t pv;
    PMIX_VALUE_CONSTRUCT(&pv);
    pv.type = PMIX_STRING;
    pv.data.string = v.data();
    pmix_status_t rc = PMIx_Put(scope, k.c_str(), &pv);
    if (rc != PMIX_SUCCESS) throw WireUpError(pmix_error("PMIx_Put", rc));
  }

  // A string the launcher may provide for `rank` ("" when it does not).
  std::string optional_string(pmix_rank_t rank, const char* key) {
    pmix_proc_t proc;
    PMIX_PROC_LOAD(&proc, me_.nspace, rank);
    pmix_info_t info;
    bool optional = true;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    pmix_value_t* value = nullptr;
    const pmix_status_t rc = PMIx_Get(&proc, key, &info, 1, &value);
    PMIX_INFO_DESTRUCT(&info);
    std::string result;
    if (rc == PMIX_SUCCESS && value != nullptr && value->type == PMIX_STRING && value->data.string != nullptr)
      result = value->data.string;
    if (value != nullptr) PMIX_VALUE_RELEASE(value);
    return result;
  }

  pmix_proc_t me_{};
  std::uint32_t size_ = 0;
  std::uint32_t local_size_ = 0;
};

bool has_env(const char* name) { return std::getenv(name) != nullptr; }

bool pmix_launcher_variables_set() {
  if (has_env("PMIX_NAMESPACE") || has_env("PMIX_RANK")) return true;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "PMIX_SERVER_URI", 15) == 0) return true;
  return false;
}

}  // namespace

std::unique_ptr<KvStore> connect_to_launcher() {
  if (pmix_launcher_variables_set()) return std::make_unique<PmixStore>();
  if (has_env("PMI_RANK") || has_env("PMI_FD"))
    throw WireUpError("started by a PMI-1 launcher (such as MPICH's mpiexec); shmpi ranks need a "
                      "PMIx launcher: use shmpirun, Open MPI's mpirun or srun --mpi=pmix");
  return std::make_unique<SingletonStore>();
}

}  // namespace shmpi::runtime
