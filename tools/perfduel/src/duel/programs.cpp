#include "duel/programs.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "run/process_executor.hpp"
#include "run/shared_libraries.hpp"
#include "util/elf.hpp"
#include "util/sha256.hpp"

namespace perfduel {

namespace {

// Written first into what a fingerprint hashes: a fingerprint of another form never equals it.
constexpr std::string_view k_fingerprint_form = "perfduel program fingerprint 1\n";

// The directory a run of `command` starts in.
std::filesystem::path run_directory(const CommandSpec& command) {
  std::error_code ec;
  const auto directory = command.working_directory.empty()
                             ? std::filesystem::current_path(ec)
                             : std::filesystem::absolute(command.working_directory, ec);
  return directory.lexically_normal();
}

// The regular file `word` names, resolved against `directory` when relative; empty when it
// names none (an option, a number, a directory, a device, a file that does not exist).
std::filesystem::path regular_file(const std::string& word, const std::filesystem::path& directory) {
  if (word.empty()) {
    return {};
  }
  std::filesystem::path path(word);
  if (path.is_relative()) {
    path = directory / path;
  }
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? path : std::filesystem::path();
}

// The interpreter a script's first line names ("#!/bin/sh -e": /bin/sh); empty when `path` is
// no script.
std::string script_interpreter(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::string line;
  if (!std::getline(file, line) || line.rfind("#!", 0) != 0) {
    return {};
  }
  const auto start = line.find_first_not_of(" \t", 2);
  if (start == std::string::npos) {
    return {};
  }
  const auto end = line.find_first_of(" \t\r", start);
  return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Builds one side's fingerprint: each file read and hashed once in `hashes`, its libraries
// listed through `executor`. Each step returns why it failed, or an empty string.
class FingerprintBuilder {
 public:
  FingerprintBuilder(Executor& executor, FileHashes& hashes, const CommandSpec& command)
      : m_executor(executor), m_hashes(hashes), m_command(command), m_directory(run_directory(command)) {}

  // The executable at `path` (a program, or a script and its interpreter) and its libraries.
  std::string add_program(const std::filesystem::path& path) {
    auto image = util::read_elf_image(path);
    if (!image) {
      return image.error();
    }
    if (!*image) {  // a script: its text, and the program that runs it
      if (auto error = add_content(FileRole::executable, "the executable", path); !error.empty()) {
        return error;
      }
      const auto interpreter = script_interpreter(path);
      if (interpreter.empty()) {
        return {};  // the kernel will refuse it; the run says so
      }
      auto interpreter_image = util::read_elf_image(interpreter);
      if (!interpreter_image || !*interpreter_image) {
        return fmt::format("{}: its interpreter {} is not a program{}", path.string(), interpreter,
                           interpreter_image ? "" : ": " + interpreter_image.error());
      }
      add_image(FileRole::interpreter, "the interpreter", interpreter, (*interpreter_image)->sha256);
      return add_libraries(interpreter, (*interpreter_image)->interpreter);
    }
    add_image(FileRole::executable, "the executable", path, (*image)->sha256);
    return add_libraries(path, (*image)->interpreter);
  }

  // Argument `index`, `word`: by its file's content when it names a regular file (or names one
  // after "=": --input=data.bin), else as the text it is.
  std::string add_argument(std::size_t index, const std::string& word) {
    const auto what = fmt::format("argument {}", index);
    if (const auto file = regular_file(word, m_directory); !file.empty()) {
      return add_content(FileRole::argument, what, file);
    }
    const auto equals = word.find('=');
    if (equals != std::string::npos) {
      if (const auto file = regular_file(word.substr(equals + 1), m_directory); !file.empty()) {
        return add_content(FileRole::argument, what, file, word.substr(0, equals + 1));
      }
    }
    m_fingerprint.entries.push_back({what, "text " + word});
    return {};
  }

  // The name the program is started under, the environment its side adds and its directory:
  // first, so that two fingerprints of different length differ at their ends (an argument more).
  void add_settings() {
    m_fingerprint.entries.push_back(
        {"the program name", std::filesystem::path(m_command.argv.front()).filename().string()});
    for (const auto& [name, value] : m_command.environment) {
      m_fingerprint.entries.push_back({"the environment variable " + name, value});
    }
    m_fingerprint.entries.push_back({"the working directory", m_directory.string()});
  }

  ProgramFingerprint finish() {
    std::string text(k_fingerprint_form);
    for (const auto& entry : m_fingerprint.entries) {
      text += entry.what + '\t' + entry.value + '\n';
    }
    m_fingerprint.sha256 = util::sha256_hex(text);
    return std::move(m_fingerprint);
  }

 private:
  // The libraries the loader `interpreter` maps for `program`; none for a static program. The
  // loader is given the program's real path: started by the kernel, a program's $ORIGIN is the
  // directory of the file itself (/proc/self/exe), even when it was started through a symbolic
  // link (as a gate's baseline is), while a loader given a path takes it as written.
  std::string add_libraries(const std::filesystem::path& program, const std::string& interpreter) {
    if (interpreter.empty()) {
      return {};
    }
    std::error_code ec;
    const auto real_path = std::filesystem::canonical(program, ec);
    auto libraries = list_shared_libraries(m_executor, ec ? program : real_path, interpreter,
                                           m_command.environment, m_directory);
    if (!libraries) {
      return libraries.error();
    }
    for (const auto& library : *libraries) {
      auto hash = image_hash(library.path);
      if (!hash) {
        return hash.error();
      }
      m_fingerprint.entries.push_back({"the shared library " + library.name, *hash});
      m_fingerprint.files.push_back({FileRole::library, library.name, library.path, *hash});
    }
    return {};
  }

  void add_image(FileRole role, const std::string& what, const std::filesystem::path& path,
                 const std::string& sha256) {
    m_hashes.emplace("image " + canonical(path), sha256);
    m_fingerprint.entries.push_back({what, sha256});
    m_fingerprint.files.push_back({role, what, path, sha256});
  }

  // A file by its whole content, its entry's value after `prefix` ("--input=").
  std::string add_content(FileRole role, const std::string& what, const std::filesystem::path& path,
                          const std::string& prefix = {}) {
    const auto key = "content " + canonical(path);
    auto found = m_hashes.find(key);
    if (found == m_hashes.end()) {
      auto hash = util::sha256_of_file(path);
      if (!hash) {
        return hash.error();
      }
      found = m_hashes.emplace(key, *hash).first;
    }
    m_fingerprint.entries.push_back({what, prefix + "file " + found->second});
    m_fingerprint.files.push_back({role, what, path, found->second});
    return {};
  }

  // An ELF file by what its loader maps, any other by its content.
  util::Expected<std::string> image_hash(const std::filesystem::path& path) {
    const auto key = "image " + canonical(path);
    if (const auto found = m_hashes.find(key); found != m_hashes.end()) {
      return found->second;
    }
    auto image = util::read_elf_image(path);
    if (!image) {
      return util::Expected<std::string>::failure(image.error());
    }
    auto hash = *image ? util::Expected<std::string>((*image)->sha256) : util::sha256_of_file(path);
    if (hash) {
      m_hashes.emplace(key, *hash);
    }
    return hash;
  }

  static std::string canonical(const std::filesystem::path& path) {
    std::error_code ec;
    const auto resolved = std::filesystem::weakly_canonical(path, ec);
    return (ec ? path : resolved).string();
  }

  Executor& m_executor;
  FileHashes& m_hashes;
  const CommandSpec& m_command;
  std::filesystem::path m_directory;
  ProgramFingerprint m_fingerprint;
};

}  // namespace

util::Expected<ProgramFingerprint> fingerprint_program(const CommandSpec& command, Executor& executor,
                                                       FileHashes& hashes) {
  using Result = util::Expected<ProgramFingerprint>;
  if (command.launch == Launch::shell || command.argv.empty()) {
    return Result::failure("a --shell command is not fingerprinted: the shell decides what runs");
  }
  const auto program = resolve_program(command.argv.front(), command.working_directory);
  if (!program) {
    return Result::failure(program.error());
  }
  FingerprintBuilder builder(executor, hashes, command);
  builder.add_settings();
  if (auto error = builder.add_program(*program); !error.empty()) {
    return Result::failure(error);
  }
  for (std::size_t i = 1; i < command.argv.size(); ++i) {
    if (auto error = builder.add_argument(i, command.argv[i]); !error.empty()) {
      return Result::failure(error);
    }
  }
  return builder.finish();
}

ProgramComparison compare_programs(const Config& config, Executor& executor) {
  ProgramComparison comparison;
  if (config.identical_programs == IdenticalPrograms::measure) {
    comparison.reason = "identical_programs: measure";
    return comparison;
  }
  if (config.baseline->launch == Launch::shell || config.candidate->launch == Launch::shell) {
    comparison.reason = "--shell commands are not fingerprinted: the shell decides what runs";
    return comparison;
  }
  FileHashes hashes;
  auto baseline = fingerprint_program(*config.baseline, executor, hashes);
  if (!baseline) {
    comparison.reason = "baseline: " + baseline.error();
    return comparison;
  }
  auto candidate = fingerprint_program(*config.candidate, executor, hashes);
  if (!candidate) {
    comparison.reason = "candidate: " + candidate.error();
    return comparison;
  }
  comparison.reason = first_difference(*baseline, *candidate);
  comparison.result = comparison.reason.empty() ? ProgramsCompared::identical : ProgramsCompared::different;
  comparison.baseline = std::move(baseline).value();
  comparison.candidate = std::move(candidate).value();
  return comparison;
}

std::string first_difference(const ProgramFingerprint& baseline, const ProgramFingerprint& candidate) {
  const auto& a = baseline.entries;
  const auto& b = candidate.entries;
  const std::string_view library = "the shared library ";
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i].what != b[i].what) {
      const bool a_library = a[i].what.rfind(library, 0) == 0;
      const bool b_library = b[i].what.rfind(library, 0) == 0;
      if (a_library && b_library) {
        return fmt::format("the shared libraries differ ({} against {})", a[i].what.substr(library.size()),
                           b[i].what.substr(library.size()));
      }
      if (a_library || b_library) {
        return fmt::format("only the {} loads {}", a_library ? "baseline" : "candidate",
                           (a_library ? a[i] : b[i]).what.substr(library.size()));
      }
      return fmt::format("they depend on different things ({} against {})", a[i].what, b[i].what);
    }
    if (a[i].value != b[i].value) {
      return a[i].what + " differs";
    }
  }
  if (a.size() != b.size()) {
    const bool more = a.size() > b.size();
    return fmt::format("only the {} has {}", more ? "baseline" : "candidate",
                       (more ? a : b)[std::min(a.size(), b.size())].what);
  }
  return {};
}

}  // namespace perfduel
