/* pmix_locality: a plain PMIx client (no MPI) that shows what a launcher
 * tells each rank about where the others run: the facts shmpi's locality
 * rests on (PMIX_HOSTNAME per rank), and that data put with PMIX_LOCAL
 * scope reaches only the ranks on the same node while PMIX_GLOBAL data
 * reaches every rank.
 *
 * Every rank puts its rank under "probe.local" (PMIX_LOCAL) and
 * "probe.global" (PMIX_GLOBAL), fences with data collection, reads every
 * rank's host name and both keys, and prints
 *   pmix_locality: rank R host H peers-on-host LIST local-visible LIST OK
 * where LIST is comma-separated ranks: the ranks whose PMIX_HOSTNAME is H,
 * and the ranks whose "probe.local" it could read. OK needs every global
 * value correct, the local one readable from every same-host rank and
 * from no other; otherwise the line says FAIL and why. Exits non-zero on
 * any failure. */
#include <pmix.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANKS 64

static pmix_proc_t me;

static void put_rank(const char *key, pmix_scope_t scope) {
  pmix_value_t value;
  PMIX_VALUE_CONSTRUCT(&value);
  value.type = PMIX_UINT32;
  value.data.uint32 = me.rank;
  if (PMIx_Put(scope, key, &value) != PMIX_SUCCESS) {
    printf("pmix_locality: rank %u FAIL: PMIx_Put %s\n", me.rank, key);
    exit(1);
  }
}

/* The rank a peer put under KEY, or -1 when this rank cannot read it.
 * PMIX_TIMEOUT bounds the wait for a key that never comes (the local one
 * of a peer on another node). */
static long get_rank(uint32_t peer, const char *key) {
  pmix_proc_t proc;
  pmix_value_t *value = NULL;
  pmix_info_t info;
  int seconds = 2;
  PMIX_PROC_LOAD(&proc, me.nspace, peer);
  PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &seconds, PMIX_INT);
  pmix_status_t rc = PMIx_Get(&proc, key, &info, 1, &value);
  PMIX_INFO_DESTRUCT(&info);
  long result = rc == PMIX_SUCCESS && value != NULL && value->type == PMIX_UINT32 ? (long)value->data.uint32 : -1;
  if (value != NULL) PMIX_VALUE_RELEASE(value);
  return result;
}

/* PMIX_HOSTNAME of PEER copied into HOST (empty when not given). */
static void host_of(uint32_t peer, char *host, size_t size) {
  pmix_proc_t proc;
  pmix_value_t *value = NULL;
  PMIX_PROC_LOAD(&proc, me.nspace, peer);
  host[0] = '\0';
  if (PMIx_Get(&proc, PMIX_HOSTNAME, NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING)
    snprintf(host, size, "%s", value->data.string);
  if (value != NULL) PMIX_VALUE_RELEASE(value);
}

static uint32_t job_size(void) {
  pmix_proc_t job;
  pmix_value_t *value = NULL;
  uint32_t size = 0;
  PMIX_PROC_LOAD(&job, me.nspace, PMIX_RANK_WILDCARD);
  if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_UINT32)
    size = value->data.uint32;
  if (value != NULL) PMIX_VALUE_RELEASE(value);
  return size;
}

static void append(char *list, size_t size, uint32_t rank) {
  size_t used = strlen(list);
  snprintf(list + used, size - used, "%s%u", used ? "," : "", rank);
}

int main(void) {
  if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
    printf("pmix_locality: FAIL: PMIx_Init (no PMIx launcher?)\n");
    return 1;
  }
  uint32_t size = job_size();
  if (size == 0 || size > MAX_RANKS) {
    printf("pmix_locality: rank %u FAIL: job size %u\n", me.rank, size);
    return 1;
  }
  put_rank("probe.local", PMIX_LOCAL);
  put_rank("probe.global", PMIX_GLOBAL);
  PMIx_Commit();
  pmix_info_t collect;
  bool yes = true;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  pmix_status_t rc = PMIx_Fence(NULL, 0, &collect, 1);
  PMIX_INFO_DESTRUCT(&collect);
  if (rc != PMIX_SUCCESS) {
    printf("pmix_locality: rank %u FAIL: PMIx_Fence %d\n", me.rank, rc);
    return 1;
  }

  char mine[256], theirs[256], same[512] = "", visible[512] = "", why[256] = "";
  host_of(me.rank, mine, sizeof mine);
  if (mine[0] == '\0') snprintf(why, sizeof why, "no PMIX_HOSTNAME for myself");
  for (uint32_t peer = 0; peer < size; ++peer) {
    host_of(peer, theirs, sizeof theirs);
    int same_host = strcmp(theirs, mine) == 0;
    int local_seen = get_rank(peer, "probe.local") == (long)peer;
    if (same_host) append(same, sizeof same, peer);
    if (local_seen) append(visible, sizeof visible, peer);
    if (get_rank(peer, "probe.global") != (long)peer && !why[0])
      snprintf(why, sizeof why, "global value of rank %u not readable", peer);
    if (same_host != local_seen && !why[0])
      snprintf(why, sizeof why, "rank %u (host '%s'): local value %s", peer, theirs,
               local_seen ? "readable across hosts" : "unreadable on the same host");
  }
  printf("pmix_locality: rank %u host %s peers-on-host %s local-visible %s %s%s\n", me.rank, mine, same, visible,
         why[0] ? "FAIL: " : "OK", why);
  fflush(stdout);
  /* Nobody leaves before everyone has read what it needs. */
  PMIx_Fence(NULL, 0, NULL, 0);
  PMIx_Finalize(NULL, 0);
  return why[0] ? 1 : 0;
}
