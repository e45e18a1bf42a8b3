// A plain PMIx client standing in for an MPI rank in the launcher's
// integration tests (the MPI runtime is not needed). Usage:
//   test_rank MODE [args]    (every rank runs the same MODE)
// Each rank writes its pid to $TEST_PID_DIR/rank.<r> after PMIx_Init (when
// the variable is set), so tests can check that no rank survives.
#include <pmix.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <shmpi/job_contract.hpp>

namespace {

pmix_proc_t g_me;
int g_size = 0;

void die(const char* what, int rc) {
  std::fprintf(stderr, "test_rank: %s failed: %d\n", what, rc);
  std::exit(99);
}

void init() {
  int rc = PMIx_Init(&g_me, nullptr, 0);
  if (rc != PMIX_SUCCESS) die("PMIx_Init", rc);
  pmix_proc_t wild;
  PMIX_LOAD_PROCID(&wild, g_me.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t* value = nullptr;
  if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, nullptr, 0, &value)) != PMIX_SUCCESS) die("PMIx_Get(size)", rc);
  g_size = static_cast<int>(value->data.uint32);
  PMIX_VALUE_RELEASE(value);
  if (const char* dir = std::getenv("TEST_PID_DIR")) {
    std::string path = std::string(dir) + "/rank." + std::to_string(g_me.rank);
    if (FILE* f = std::fopen(path.c_str(), "w")) {
      std::fprintf(f, "%d\n", static_cast<int>(getpid()));
      std::fclose(f);
    }
  }
}

void finalize() {
  int rc = PMIx_Finalize(nullptr, 0);
  if (rc != PMIX_SUCCESS) die("PMIx_Finalize", rc);
}

// Publishes a key, fences with data collection, reads every peer's key.
void exchange() {
  pmix_value_t value;
  PMIX_VALUE_CONSTRUCT(&value);
  value.type = PMIX_UINT32;
  value.data.uint32 = 1000 + g_me.rank;
  int rc = PMIx_Put(PMIX_LOCAL, "test.key", &value);
  if (rc != PMIX_SUCCESS) die("PMIx_Put", rc);
  if ((rc = PMIx_Commit()) != PMIX_SUCCESS) die("PMIx_Commit", rc);
  pmix_info_t collect;
  bool yes = true;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  if ((rc = PMIx_Fence(nullptr, 0, &collect, 1)) != PMIX_SUCCESS) die("PMIx_Fence", rc);
  for (int peer = 0; peer < g_size; ++peer) {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, g_me.nspace, static_cast<pmix_rank_t>(peer));
    pmix_value_t* got = nullptr;
    if ((rc = PMIx_Get(&proc, "test.key", nullptr, 0, &got)) != PMIX_SUCCESS) die("PMIx_Get(peer)", rc);
    if (got->data.uint32 != 1000u + static_cast<unsigned>(peer)) die("peer value", static_cast<int>(got->data.uint32));
    PMIX_VALUE_RELEASE(got);
  }
}

bool is_target(int argc, char** argv, int index) {
  return argc <= index || std::atoi(argv[index]) == static_cast<int>(g_me.rank);
}

// Publishes "blocked in MPI_Recv from `peer` with `tag`" as the runtime would.
void publish_blocked(int peer, int tag) {
  const char* fd_text = std::getenv(shmpi::contract::kEnvStatusFd);
  if (fd_text == nullptr) die("SHMPI_STATUS_FD missing", 0);
  std::size_t bytes = static_cast<std::size_t>(g_size) * sizeof(shmpi::contract::RankStatus);
  void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, std::atoi(fd_text), 0);
  if (map == MAP_FAILED) die("mmap status", errno);
  auto& rec = static_cast<shmpi::contract::RankStatus*>(map)[g_me.rank];
  std::uint32_t seq = rec.sequence.load(std::memory_order_relaxed);
  rec.sequence.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  rec.state = static_cast<std::uint32_t>(shmpi::contract::RankState::Blocked);
  std::snprintf(rec.call, sizeof rec.call, "MPI_Recv");
  rec.peer = peer;
  rec.tag = tag;
  rec.count = 8;
  rec.context = 0;
  rec.outstanding = 0;
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  rec.since_ns = static_cast<std::uint64_t>(now.tv_sec) * 1000000000u + static_cast<std::uint64_t>(now.tv_nsec);
  rec.sequence.store(seq + 2, std::memory_order_release);
}

void wait_for_file(const char* path) {
  while (access(path, F_OK) != 0) usleep(10000);
}

void on_sigint(int) {
  const char msg[] = "got SIGINT\n";
  [[maybe_unused]] ssize_t n = write(1, msg, sizeof msg - 1);
  _exit(0);
}

int run_mode(const std::string& mode, int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: test_rank MODE [args]\n");
    return 64;
  }
  return run_mode(argv[1], argc, argv);
}

namespace {

int run_mode(const std::string& mode, int argc, char** argv) {
  if (mode == "noinit") return argc > 2 ? std::atoi(argv[2]) : 0;  // never talks to PMIx
  init();
  if (mode == "hello") {  // hello [lines]: lines on stdout and stderr
    exchange();
    int lines = argc > 2 ? std::atoi(argv[2]) : 1;
    for (int i = 0; i < lines; ++i) {
      std::printf("hello from rank %u of %d line %d\n", g_me.rank, g_size, i);
      std::fprintf(stderr, "stderr from rank %u line %d\n", g_me.rank, i);
    }
  } else if (mode == "pieces") {  // lines written in several write() calls, last line unterminated
    for (int i = 0; i < 50; ++i) {
      std::string a = "rank " + std::to_string(g_me.rank) + " piece-a ", b = "piece-b " + std::to_string(i) + "\n";
      [[maybe_unused]] ssize_t n = write(1, a.data(), a.size());
      usleep(200);
      n = write(1, b.data(), b.size());
    }
    std::string tail = "tail of rank " + std::to_string(g_me.rank);
    [[maybe_unused]] ssize_t n = write(1, tail.data(), tail.size());
  } else if (mode == "exit") {  // exit CODE [RANK]: that rank exits without finalize, others block
    if (is_target(argc, argv, 3)) std::exit(std::atoi(argv[2]));
    pause();
  } else if (mode == "nofinalize") {  // rank 0 exits 0 without PMIx_Finalize, others finalize
    if (g_me.rank == 0) std::exit(0);
    pause();
  } else if (mode == "segv") {  // segv [RANK]
    if (is_target(argc, argv, 2)) {
      signal(SIGSEGV, SIG_DFL);  // under ASan: die by the signal, not by its report
      raise(SIGSEGV);
    }
    pause();
  } else if (mode == "abort") {  // abort CODE [RANK]
    if (is_target(argc, argv, 3)) {
      PMIx_Abort(std::atoi(argv[2]), "test abort message", nullptr, 0);
      std::exit(std::atoi(argv[2]));
    }
    pause();
  } else if (mode == "sleep") {  // sleep forever (SIGTERM ends it)
    pause();
  } else if (mode == "ignore-term") {  // ignores SIGTERM and SIGINT: only SIGKILL ends it
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    std::printf("ready\n");
    std::fflush(stdout);
    for (;;) pause();
  } else if (mode == "sigint") {  // prints on SIGINT and exits 0
    signal(SIGINT, on_sigint);
    for (;;) pause();
  } else if (mode == "ring-deadlock") {  // rank r waits for rank (r+1) % size, tag 7 + r
    publish_blocked((static_cast<int>(g_me.rank) + 1) % g_size, 7 + static_cast<int>(g_me.rank));
    pause();
  } else if (mode == "wait-file") {  // wait-file PATH: finalize once PATH exists
    wait_for_file(argv[2]);
  } else if (mode == "env") {  // env VAR...: print VAR=value (or VAR unset)
    for (int i = 2; i < argc; ++i) {
      const char* v = std::getenv(argv[i]);
      std::printf("rank %u %s=%s\n", g_me.rank, argv[i], v != nullptr ? v : "(unset)");
    }
  } else if (mode == "cat") {  // copies stdin to stdout with a rank prefix
    char line[4096];
    while (std::fgets(line, sizeof line, stdin) != nullptr) std::printf("rank %u read %s", g_me.rank, line);
  } else if (mode == "affinity") {
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    std::printf("rank %u cpus %d\n", g_me.rank, CPU_COUNT(&set));
    std::fflush(stdout);
    if (argc > 2) wait_for_file(argv[2]);
  } else {
    std::fprintf(stderr, "test_rank: unknown mode %s\n", mode.c_str());
    return 64;
  }
  std::fflush(stdout);
  finalize();
  return 0;
}

}  // namespace
