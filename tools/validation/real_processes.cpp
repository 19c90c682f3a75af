#include "real_processes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace perfduel::validation {

namespace {

double spawn_and_time(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) {
    throw std::runtime_error("cannot start " + argv[0]);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void validate_real(const Options& options) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("perfduel_validate_{}", ::getpid());
  fs::create_directories(dir);
  const fs::path config = dir / "drift.yaml";
  // At least `real_rounds` rounds, so that A-then-B blocks of as many runs last about half a
  // drift period (4,000 runs of ~7.5 ms ≈ 30 s): the case where running A then B goes wrong.
  std::ofstream(config) << fmt::format(
      "# A/A on the drift program: wall time gated at a 10 % width, at least {} rounds, budget {} s\n"
      "identical_programs: measure\n"
      "metrics:\n  wall_time: {{threshold: 10%, gate: true}}\nmin_rounds: {}\nmax_rounds: "
      "100000\nmax_seconds: {}\n",
      options.real_rounds, options.real_seconds, options.real_rounds, options.real_seconds);
  fmt::print(
      "\n### Real processes: the drift program A/A (λ = 5 ms, α period 60 s, β σ = 0.28)\n\n"
      "perfduel runs at least {} rounds (budget {} s); A-then-B then runs as many runs per side, each side "
      "a block of the length shown. Both programs are identical, so the true change is 0.\n\n"
      "| repeat | perfduel rounds | perfduel estimated change | perfduel interval | perfduel verdict | "
      "A-then-B N | A-then-B block length | A-then-B estimated change (geometric means) |\n"
      "|---|---|---|---|---|---|---|---|\n",
      options.real_rounds, options.real_seconds);
  for (int r = 0; r < options.real_repeats; ++r) {
    const fs::path json = dir / fmt::format("report{}.json", r);
    const std::string command = fmt::format(
        "'{}' compare --quiet --seed {} --config '{}' --baseline '{} 5' --candidate '{} 5' --json '{}' > "
        "'{}' 2>&1",
        options.perfduel, r + 1, config.string(), options.drift_program, options.drift_program, json.string(),
        (dir / "out.txt").string());
    const int status = std::system(command.c_str());
    (void)status;  // a verdict is an exit code; the JSON report carries the numbers
    std::ifstream in(json);
    if (!in) {
      fmt::print("| {} | perfduel wrote no report (see {}) | | | | |\n", r + 1, (dir / "out.txt").string());
      continue;
    }
    const auto report = nlohmann::json::parse(in);
    double change = 0;
    double lo = 0;
    double hi = 0;
    int rounds = 0;
    std::string verdict;
    for (const auto& metric : report.at("metrics")) {
      if (metric.at("name") == "wall_time") {
        change = metric.at("change").get<double>();
        lo = metric.at("ci").at(0).get<double>();
        hi = metric.at("ci").at(1).get<double>();
        rounds = metric.at("rounds").get<int>();
        verdict = metric.at("verdict").get<std::string>();
      }
    }
    // A-then-B with the same number of runs per side, started right after.
    double log_a = 0;
    double log_b = 0;
    const std::vector<std::string> argv{options.drift_program, "5"};
    const auto block_start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) {
      log_a += std::log(spawn_and_time(argv));
    }
    const double block_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - block_start).count();
    for (int i = 0; i < rounds; ++i) {
      log_b += std::log(spawn_and_time(argv));
    }
    const double sequential = std::expm1((log_b - log_a) / std::max(rounds, 1));
    fmt::print("| {} | {} | {:+.2f} % | [{:+.2f} %, {:+.2f} %] | {} | {} | {:.0f} s | {:+.2f} % |\n", r + 1,
               rounds, 100 * change, 100 * lo, 100 * hi, verdict, rounds, block_seconds, 100 * sequential);
    std::fflush(stdout);
  }
  fs::remove_all(dir);
}

}  // namespace perfduel::validation
