#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "ctest/shard.hpp"
#include "error.hpp"

namespace perfduel::cli {

namespace {

struct ShardOptions {
  std::string shard;
  std::string label = "perf";
};

int run_shard(const ShardOptions& options) {
  const auto shard = parse_shard(options.shard);
  if (!shard) {
    throw Error(fmt::format("shard: {}", shard.error()));
  }
  const std::string input{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  const auto gates = gate_tests(input, options.label);
  if (!gates) {
    throw Error(fmt::format("shard: standard input: {}", gates.error()));
  }
  const auto mine = gates_of_shard(*gates, *shard);
  // What this runner does goes to stderr, so that stdout is the regex alone.
  fmt::print(stderr, "perfduel: shard {}/{}: {} of {} gates{}{}\n", shard->index, shard->count, mine.size(),
             gates->size(), mine.empty() ? "" : ": ", fmt::join(mine, ", "));
  if (!mine.empty()) {
    fmt::print("{}\n", exact_names_regex(mine));
  }
  return 0;
}

}  // namespace

void add_shard_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<ShardOptions>(subcommand, exit_code, run_shard);
  command->add_option("shard", options->shard, "K/N: this runner's number from 1 to N, and N")->required();
  command->add_option("--label", options->label, "the label of the gates (default perf)");
  command->footer(
      "Example:\n  regex=$(ctest --test-dir build -N -L perf --show-only=json-v1 | perfduel shard 2/3)\n"
      "  [ -z \"$regex\" ] || ctest --test-dir build -L perf -R \"$regex\" --output-on-failure");
}

}  // namespace perfduel::cli
