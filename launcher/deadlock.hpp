// Wait-for analysis for the hang report: pure functions over a snapshot of
// what every rank is doing, so they are unit-tested without processes.
//
// A rank blocked in a call on a specific peer waits for that peer. Such
// waits form a graph where every rank has at most one outgoing edge; a cycle
// in it (0 -> 1 -> 0, or 0 -> 1 -> 2 -> 0) is a deadlock no message from
// outside the cycle can break (wildcard receives are not edges).
#pragma once

#include <span>
#include <string>
#include <vector>

namespace shmpi::launcher {

struct WaitRecord {
  enum class State { NotStarted, Running, Blocked, Gone };  // Gone: finalized or exited
  State state = State::NotStarted;
  std::string call;  // e.g. "MPI_Recv"
  int peer = -2;     // world rank waited for; -1 any source, -2 none
  int tag = -1;      // -1 any tag
};

// Each cycle lists ranks in wait order (ranks[i] waits for ranks[i+1], the
// last for the first), starting at its smallest rank; cycles are ordered
// by that rank. `records[r]` describes rank r.
std::vector<std::vector<int>> find_wait_cycles(std::span<const WaitRecord> records);

// "deadlock: rank 0 waits in MPI_Recv for rank 1 (tag 7); rank 1 waits in
// MPI_Recv for rank 0 (tag 8)"
std::string describe_cycle(std::span<const WaitRecord> records, const std::vector<int>& cycle);

// One line per rank blocked on a peer that has finalized or exited:
// "stuck: rank 2 waits in MPI_Recv for rank 3 (any tag), which has finished"
std::vector<std::string> describe_waits_on_gone(std::span<const WaitRecord> records);

}  // namespace shmpi::launcher
