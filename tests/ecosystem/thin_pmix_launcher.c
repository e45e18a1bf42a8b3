/* thin_pmix_launcher: a deliberately incomplete PMIx launcher for tests. It
 * serves PMIx (libpmix server API) to N local ranks of a program, like
 * shmpirun, but leaves the job-info keys named with --omit out of what it
 * registers: a stand-in for a foreign launcher whose PMIx server lacks a key
 * shmpi needs. It prints nothing itself on success and exits with the first
 * non-zero exit status of a rank (128+signal if one was killed).
 *
 *   thin_pmix_launcher N [--omit KEY]... program [args...]
 */
#include <pmix.h>
#include <pmix_server.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_OMIT 8

static const char *omitted[MAX_OMIT];
static int n_omitted;

static int is_omitted(const char *key) {
  for (int i = 0; i < n_omitted; ++i)
    if (strcmp(omitted[i], key) == 0) return 1;
  return 0;
}

static void op_done(pmix_status_t status, void *cbdata) {
  __atomic_store_n((int *)cbdata, status == PMIX_SUCCESS ? 1 : -1, __ATOMIC_RELEASE);
}

/* Waits for a non-blocking server call started with op_done/flag. */
static int wait_op(pmix_status_t rc, int *flag, const char *what) {
  if (rc == PMIX_OPERATION_SUCCEEDED) return 0;
  if (rc == PMIX_SUCCESS) {
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) usleep(1000);
    if (*flag == 1) return 0;
  }
  fprintf(stderr, "thin_pmix_launcher: %s failed (%s)\n", what, PMIx_Error_string(rc));
  return -1;
}

/* Adds a uint32 job key unless it is omitted. */
static void add_u32(pmix_info_t *info, size_t *n, const char *key, uint32_t value) {
  if (!is_omitted(key)) PMIX_INFO_LOAD(&info[(*n)++], key, &value, PMIX_UINT32);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: thin_pmix_launcher N [--omit KEY]... program [args...]\n");
    return 2;
  }
  uint32_t size = (uint32_t)atoi(argv[1]);
  int first = 2;
  while (first + 1 < argc && strcmp(argv[first], "--omit") == 0 && n_omitted < MAX_OMIT) {
    omitted[n_omitted++] = argv[first + 1];
    first += 2;
  }
  if (size < 1 || first >= argc) {
    fprintf(stderr, "thin_pmix_launcher: need N >= 1 and a program\n");
    return 2;
  }
  setenv("PMIX_MCA_gds", "hash", 1); /* no files (DESIGN.md, platform facts) */

  static pmix_server_module_t module; /* no upcalls: a local fence needs none */
  pmix_info_t init_info[1];
  const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  PMIX_INFO_LOAD(&init_info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
  if (PMIx_server_init(&module, init_info, 1) != PMIX_SUCCESS) {
    fprintf(stderr, "thin_pmix_launcher: PMIx_server_init failed\n");
    return 1;
  }

  char peers[4096] = "", host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  for (uint32_t r = 0; r < size; ++r)
    snprintf(peers + strlen(peers), sizeof peers - strlen(peers), r ? ",%u" : "%u", r);

  pmix_info_t *job;
  size_t njob = 0;
  PMIX_INFO_CREATE(job, 8 + size);
  add_u32(job, &njob, PMIX_UNIV_SIZE, size);
  add_u32(job, &njob, PMIX_JOB_SIZE, size);
  add_u32(job, &njob, PMIX_LOCAL_SIZE, size);
  add_u32(job, &njob, PMIX_NODE_SIZE, size);
  add_u32(job, &njob, PMIX_MAX_PROCS, size);
  if (!is_omitted(PMIX_LOCAL_PEERS)) PMIX_INFO_LOAD(&job[njob++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
  if (!is_omitted(PMIX_HOSTNAME)) PMIX_INFO_LOAD(&job[njob++], PMIX_HOSTNAME, host, PMIX_STRING);
  for (uint32_t r = 0; r < size; ++r) { /* per-rank data, or clients fail to init */
    pmix_data_array_t proc;
    PMIX_DATA_ARRAY_CONSTRUCT(&proc, 3, PMIX_INFO);
    pmix_info_t *p = (pmix_info_t *)proc.array;
    pmix_rank_t rank = r;
    uint16_t local = (uint16_t)r;
    PMIX_INFO_LOAD(&p[0], PMIX_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&p[1], PMIX_LOCAL_RANK, &local, PMIX_UINT16);
    PMIX_INFO_LOAD(&p[2], PMIX_NODE_RANK, &local, PMIX_UINT16);
    PMIX_INFO_LOAD(&job[njob++], PMIX_PROC_DATA, &proc, PMIX_DATA_ARRAY);
    PMIX_DATA_ARRAY_DESTRUCT(&proc);
  }

  pmix_nspace_t nspace;
  PMIX_LOAD_NSPACE(nspace, "thin-launcher");
  int registered = 0, status = 0;
  if (wait_op(PMIx_server_register_nspace(nspace, (int)size, job, njob, op_done, &registered), &registered,
              "PMIx_server_register_nspace"))
    return 1;

  pid_t *pids = calloc(size, sizeof(pid_t));
  extern char **environ;
  for (uint32_t r = 0; r < size; ++r) {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, r);
    int client = 0;
    if (wait_op(PMIx_server_register_client(&proc, getuid(), getgid(), NULL, op_done, &client), &client,
                "PMIx_server_register_client"))
      return 1;
    /* setup_fork reallocs the array: a malloc'd, NULL-terminated copy. */
    size_t n = 0;
    while (environ[n]) ++n;
    char **env = calloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; ++i) env[i] = strdup(environ[i]);
    if (PMIx_server_setup_fork(&proc, &env) != PMIX_SUCCESS) {
      fprintf(stderr, "thin_pmix_launcher: PMIx_server_setup_fork failed\n");
      return 1;
    }
    pids[r] = fork();
    if (pids[r] == 0) {
      execve(argv[first], &argv[first], env);
      fprintf(stderr, "thin_pmix_launcher: cannot run %s\n", argv[first]);
      _exit(127);
    }
    for (char **e = env; *e; ++e) free(*e);
    free(env);
  }
  for (uint32_t r = 0; r < size; ++r) {
    int ws = 0;
    waitpid(pids[r], &ws, 0);
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    if (status == 0) status = code;
  }
  free(pids);
  PMIX_INFO_FREE(job, 8 + size);
  PMIx_server_finalize();
  return status;
}
