#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "run/executor.hpp"
#include "util/expected.hpp"
#include "util/name_table.hpp"

// Before the warm-up a duel asks whether there is anything to measure: what each side would run
// is fingerprinted, and identical programs are no change at once (DESIGN: "Nothing to
// measure"). A side's fingerprint covers everything its run depends on that the command names:
// the executable (for a script, its interpreter too), every shared library the dynamic loader
// maps for it (resolved by that loader, with the side's environment and working directory),
// every argument (a word that names an existing regular file, or whose value after "=" does,
// by that file's content), the name it is started under, the environment it adds and the
// working directory. What the program reads without its arguments naming it (a file it always
// opens, a library it dlopen()s) is not covered: `identical_programs: measure` is for such
// programs. A --shell command is never fingerprinted: the shell decides what runs.
namespace perfduel {

// What a fingerprinted file is to the run.
enum class FileRole {
  executable,   // the program started (a script's file, when it is one)
  interpreter,  // a script's interpreter, from its #! line
  library,      // a shared library the dynamic loader maps at start
  argument,     // a file an argument names
};

inline constexpr util::NameTable<FileRole, 4> k_file_role_names{{{FileRole::executable, "executable"},
                                                                 {FileRole::interpreter, "interpreter"},
                                                                 {FileRole::library, "library"},
                                                                 {FileRole::argument, "argument"}}};

// One file a run depends on. ELF files (the executable, its libraries) are fingerprinted by what
// the loader maps (util/elf.hpp: debug information and the build-id left out, so the same code
// built at another path is the same); scripts and argument files by their whole content.
struct FingerprintedFile {
  FileRole role = FileRole::executable;
  std::string name;            // what asked for it: the library's name ("libc.so.6"), "argument 2", ...
  std::filesystem::path path;  // where this side has it
  std::string sha256;
};

// One line of what a fingerprint covers: what (e.g. "shared library libc.so.6", "argument 1",
// "working directory") and its value (a file's SHA-256, or the text itself).
struct FingerprintEntry {
  std::string what;
  std::string value;
};

// What one side would run.
struct ProgramFingerprint {
  std::string sha256;                     // of `entries`: equal exactly when the entries are
  std::vector<FingerprintEntry> entries;  // in a fixed order: executable, libraries, arguments, ...
  std::vector<FingerprintedFile> files;   // the files behind the entries, for the report
};

// Whether the two sides were found to run the same programs.
enum class ProgramsCompared {
  identical,          // the fingerprints are equal: nothing to measure
  different,          // measured
  not_fingerprinted,  // measured: a --shell command, `identical_programs: measure`, or a failure
};

inline constexpr util::NameTable<ProgramsCompared, 3> k_programs_compared_names{
    {{ProgramsCompared::identical, "identical"},
     {ProgramsCompared::different, "different"},
     {ProgramsCompared::not_fingerprinted, "not-fingerprinted"}}};

struct ProgramComparison {
  ProgramsCompared result = ProgramsCompared::not_fingerprinted;
  // Not fingerprinted: why ("--shell commands are not fingerprinted", ...); different: the first
  // difference ("the shared library libsort.so differs"); identical: empty.
  std::string reason;
  std::optional<ProgramFingerprint> baseline;  // when fingerprinted
  std::optional<ProgramFingerprint> candidate;
};

// The hashes of the files read so far, by how and where (both sides of a duel mostly load the
// same system libraries: each is read once).
using FileHashes = std::map<std::string, std::string>;

// The fingerprint of `command` (a direct one) as it would run: its executable resolved like the
// run resolves it, its libraries listed by its own dynamic loader run through `executor`
// (run/shared_libraries.hpp), each file hashed once in `hashes`. An error says which file or
// step failed.
util::Expected<ProgramFingerprint> fingerprint_program(const CommandSpec& command, Executor& executor,
                                                       FileHashes& hashes);

// Fingerprints both sides of `config` (both must be set) and compares them: not fingerprinted
// with `identical_programs: measure` or a --shell command on either side (Launch::shell), or
// when a fingerprint fails (the reason then names it; the duel measures, and a program that
// cannot start fails there as it would have). Runs each side's dynamic loader in list mode
// through `executor`, nothing else.
ProgramComparison compare_programs(const Config& config, Executor& executor);

// The first difference between `baseline` and `candidate`, in words: "the executable differs",
// "argument 2 differs", "the shared libraries differ (libsort.so.1 against libsort.so.2)";
// empty when they are equal.
std::string first_difference(const ProgramFingerprint& baseline, const ProgramFingerprint& candidate);

}  // namespace perfduel
