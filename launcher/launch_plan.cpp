#include "launch_plan.hpp"

#include <algorithm>

#include <shmpi/tunables.hpp>

#include "handoff_probe.hpp"
#include "job_memory.hpp"
#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

void check_ranks_fit(const Options& options, int ranks, std::size_t cpus) {
  if (static_cast<std::size_t>(ranks) <= cpus || options.oversubscribe) return;
  throw usage_error(std::to_string(ranks) + " ranks but only " + std::to_string(cpus) +
                    " CPUs are available; add --oversubscribe to run more ranks than CPUs");
}

}  // namespace

LaunchPlan prepare_launch(Options options, std::span<const std::string> environment) {
  LaunchPlan plan;
  plan.program_path = resolve_program(options.command.front());
  check_environment_tunables(environment);
  plan.topology = read_topology();
  plan.ranks = options.ranks > 0 ? options.ranks : static_cast<int>(plan.topology.cpus.size());
  check_ranks_fit(options, plan.ranks, plan.topology.cpus.size());
  plan.placement = place_ranks(plan.topology, plan.ranks, options.bind_to, options.map_by, plan.core_locks);
  const std::vector<RankBinding>& bound = plan.placement.ranks;
  const auto only_cpu = [&](std::size_t rank) {
    return rank < bound.size() && bound[rank].cpus.size() == 1 ? bound[rank].cpus[0] : -1;
  };
  const contract::CpuIdentity cpu =
      cpu_for_job(environment, !profile_request(options.profile, environment).name.empty(), only_cpu(0), only_cpu(1));
  const contract::TunableDefaults defaults = job_defaults(options.profile, environment, cpu);
  auto bytes = [&](const char* name) {
    return contract::parse_bytes(effective_tunable(name, options.tunables, environment, defaults)).value_or(0);
  };
  check_job_fits(plan.ranks, {bytes("ring_size"), bytes("segment_budget"), bytes("test_available_memory")});
  check_eager_fits(options.tunables, environment, bytes("eager_limit"), bytes("ring_size"));
  if (!options.output_dir.empty()) plan.files = open_output_files(options.output_dir, plan.ranks);

  if (!options.profile.empty()) options.exports.push_back(std::string(contract::kProfileEnv) + "=" + options.profile);
  RankEnvInputs inputs{options.tunables, options.exports,
                       plan.placement.oversubscribed || plan.placement.shared_cores};
  plan.rank_env = rank_environment(environment, inputs);
  if (cpu.handoff_ns != 0) set_variable(plan.rank_env, contract::kMeasuredHandoffEnv, std::to_string(cpu.handoff_ns));
  prepare_report(options.report, plan.rank_env);  // --report: SHMPI_STATS, SHMPI_COMM_MATRIX
  plan.options = std::move(options);
  return plan;
}

std::string binding_line(const std::string& prefix, int rank, const RankBinding& binding,
                         const Topology& topology) {
  std::string line = prefix + " MCW rank " + std::to_string(rank);
  if (binding.cpus.empty()) return line + " is not bound (or bound to all available processors)";
  std::string cpus = format_cpu_list(binding.cpus);
  line += binding.cpus.size() == 1 ? " bound to CPU " : " bound to CPUs ";
  line += cpus + " (NUMA node " + std::to_string(binding.numa) + "): [";
  std::vector<int> all = topology.cpus;
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i != 0) line += '/';
    bool bound = std::find(binding.cpus.begin(), binding.cpus.end(), all[i]) != binding.cpus.end();
    line += bound ? 'B' : '.';
  }
  return line + "]";
}

}  // namespace shmpi::launcher
