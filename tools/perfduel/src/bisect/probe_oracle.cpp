#include "bisect/probe_oracle.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bisect/duel_reading.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report_format/saved_report.hpp"
#include "util/file.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

// The child gets its budget and this much more before it is killed: its warm-up round, the last
// round it may finish, starting and writing the report.
constexpr double k_duel_slack_seconds = 300;

std::string command_text(const CommandSpec& command) {
  return command.launch == Launch::shell ? command.argv.front() : util::join_shell_words(command.argv);
}

// The `perfduel compare` of duel number `duel_number` (from 1) by `plan`: `sides` (the baseline's
// and the candidate's benchmark commands) with the configuration of `attempt`, its report
// written to `report`.
CommandSpec compare_command(const DuelPlan& plan, int duel_number, const std::filesystem::path& report,
                            const std::pair<CommandSpec, CommandSpec>& sides, int attempt, Role role) {
  CommandSpec compare;
  compare.argv = {
      plan.perfduel.string(),    "compare", "--config",   plan.configs.at(attempt).string(), "--json",
      report.string(),           "--quiet", "--baseline", command_text(sides.first),         "--candidate",
      command_text(sides.second)};
  if (sides.second.launch == Launch::shell) {
    compare.argv.emplace_back("--shell");
  }
  if (role == Role::confirmation) {  // where the first bad commit made it worse, for the answer
    compare.argv.insert(compare.argv.end(), {"--explain", "failures"});
  }
  if (!plan.cpus.empty()) {
    compare.argv.insert(compare.argv.end(), {"--cpus", plan.cpus});
  }
  if (plan.seed) {
    compare.argv.insert(compare.argv.end(), {"--seed", std::to_string(*plan.seed + duel_number - 1)});
  }
  return compare;
}

}  // namespace

ProbeOracle::ProbeOracle(Executor& executor, CommitBuilder& builder, std::vector<Commit> chain, DuelPlan plan)
    : m_executor(executor), m_builder(builder), m_chain(std::move(chain)), m_plan(std::move(plan)) {}

BuildReading ProbeOracle::build(std::size_t index) {
  return m_builder.build(m_chain.at(index));
}

DuelReading ProbeOracle::duel(std::size_t baseline, std::size_t candidate, int attempt, Role role) {
  ++m_duels;
  const Commit& base = m_chain.at(baseline);
  const Commit& cand = m_chain.at(candidate);
  const CommandSpec base_command = m_builder.benchmark(base);
  const CommandSpec cand_command = m_builder.benchmark(cand);
  const std::filesystem::path report =
      m_plan.reports / fmt::format("{:02}-{}-{}-vs-{}{}.json", m_duels, to_string(role), short_id(cand.id, 8),
                                   short_id(base.id, 8), attempt > 0 ? "-more-rounds" : "");
  std::error_code ec;
  std::filesystem::create_directories(m_plan.reports, ec);
  std::filesystem::remove(report, ec);

  CommandSpec compare = compare_command(m_plan, m_duels, report, {base_command, cand_command}, attempt, role);
  compare.working_directory = cand_command.working_directory;
  RunLimits limits;
  limits.timeout_seconds = m_plan.max_seconds.at(attempt) + 3 * m_plan.run_timeout + k_duel_slack_seconds;
  const auto started = std::chrono::steady_clock::now();
  const RunResult result = m_executor.run(compare, limits);
  // The time the duel took for whoever waits on it, start-up and report included; the
  // report's own elapsed_seconds counts its rounds only.
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // The duel's table, beside its report, for whoever wants to see it.
  auto table = report;
  (void)util::write_file_atomically(table.replace_extension(".txt"), result.out + result.err);

  DuelReading reading;
  if (result.status == RunStatus::interrupted ||
      (result.status == RunStatus::exited && result.exit_code == to_int(ExitCode::interrupted))) {
    reading.reading = Reading::interrupted;
    reading.reason = "interrupted";
    return reading;
  }
  if (result.status == RunStatus::exited && result.exit_code == to_int(ExitCode::usage)) {
    // A configuration the driver refuses is refused for every duel: stop the search.
    throw Error(fmt::format("the duel of {} against {} did not start: {}", short_id(cand.id),
                            short_id(base.id), util::trim(util::tail_lines(result.err, 3))));
  }
  const auto text = util::read_file(report);
  const auto json = text ? nlohmann::ordered_json::parse(*text, nullptr, false) : nlohmann::ordered_json();
  if (json.is_object()) {
    reading = read_duel_report(report_from_json_lenient(json));
    reading.report = report.string();
    reading.seconds = seconds;
    return reading;
  }
  reading.reading = Reading::failed;
  reading.reason =
      fmt::format("perfduel compare wrote no report ({}): {}",
                  result.status == RunStatus::timed_out ? std::string("timed out")
                                                        : fmt::format("exit status {}", result.exit_code),
                  util::trim(util::tail_lines(result.err, 3)));
  return reading;
}

}  // namespace perfduel::bisect
