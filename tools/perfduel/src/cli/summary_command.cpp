#include <fstream>

#include <fmt/format.h>

#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report/html_run.hpp"
#include "report/suite_summary.hpp"
#include "util/file.hpp"

namespace perfduel::cli {

namespace {

struct SummaryOptions {
  std::vector<std::string> inputs;
  std::string markdown;
  std::string comment;
  std::string html;
  std::string html_url;
};

int run_summary(const SummaryOptions& options) {
  const std::vector<std::filesystem::path> paths(options.inputs.begin(), options.inputs.end());
  const auto gates = read_gate_results(paths);
  fmt::print("{}", format_suite_table(gates));
  std::fflush(stdout);
  if (!options.markdown.empty()) {
    std::ofstream file(options.markdown, std::ios::app);
    file << format_suite_markdown(gates);
    if (!file.flush()) {
      throw Error(fmt::format("--markdown {}: cannot write the Markdown summary", options.markdown));
    }
  }
  if (!options.comment.empty()) {
    // Replaced, not appended: the file is the whole body of one comment.
    std::ofstream file(options.comment, std::ios::trunc);
    file << format_suite_comment(gates, options.html_url);
    if (!file.flush()) {
      throw Error(fmt::format("--comment {}: cannot write the comment body", options.comment));
    }
  }
  if (!options.html.empty()) {
    if (const auto error = util::write_file_atomically(options.html, render_html_page(run_page(gates)));
        !error.empty()) {
      throw Error(fmt::format("--html {}: cannot write the page: {}", options.html, error));
    }
  }
  return suite_exit_code(gates);
}

}  // namespace

void add_summary_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<SummaryOptions>(subcommand, exit_code, run_summary);
  command->add_option("reports", options->inputs, "JSON reports, or directories of them")->required();
  command->add_option("--markdown", options->markdown,
                      "append the table as Markdown to this file (e.g. $GITHUB_STEP_SUMMARY)");
  command->add_option("--comment", options->comment,
                      "write a pull-request comment body to this file: regressed metrics first, then "
                      "the failed and undecided gates, every gate folded below; its first line "
                      "<!-- perfduel-summary --> lets CI find and update its own comment");
  command->add_option("--html", options->html,
                      "write one self-contained HTML page of the run: every gate in a table, then each "
                      "gate's duel as charts (every run, the change per round), its metrics and notes");
  command->add_option("--html-url", options->html_url,
                      "link the comment (--comment) to the run's page at this URL, e.g. the CI job's "
                      "artifact");
  command->footer(exit_codes_help(k_summary_exit_code_table));
}

}  // namespace perfduel::cli
