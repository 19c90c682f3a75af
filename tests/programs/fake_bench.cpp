// A benchmark with known behaviour for the black-box CLI tests: it burns a chosen amount of
// CPU with optional noise, can allocate and touch memory, prints a metric in every supported
// format, and can fail in every way a real benchmark fails: at once (--crash, --exit, --hang)
// or, counting its runs in a file (--counter), on the k-th run only or on every n-th
// (--fault MODE --on K / --every N), as a flaky benchmark does.
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Options {
  double work = 1.0;             // millions of loop iterations
  double noise = 0.0;            // σ of a log-normal factor on the work
  double alloc_mib = 0.0;        // memory to allocate and touch
  double score = -1;             // value to print; default: the work done
  std::string format = "plain";  // plain | json | gbench | none
  int exit_code = 0;
  bool crash = false;
  bool hang = false;
  std::string stderr_text;
  // Fault injection: `fault` happens on run `fault_on` (1-based, counted in `counter_file`),
  // or on every run whose number is a multiple of `fault_every`, or on every run when neither
  // is given.
  std::string fault;
  std::string counter_file;
  long fault_on = 0;
  long fault_every = 0;
  double flood_mib = 16;   // --fault flood: how much output
  int fault_code = 1;      // --fault exit: the exit code
  double zero_chance = 0;  // chance that the printed score is 0 (a reading at its resolution)
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "fake_bench: %s\n"
               "usage: fake_bench [--work MILLIONS] [--noise SIGMA] [--alloc-mib N] [--score X]\n"
               "                  [--format plain|json|gbench|none] [--exit N] [--crash] [--hang]\n"
               "                  [--stderr TEXT] [--tag ANY] [--zero-chance P]\n"
               "                  [--fault MODE [--counter FILE] [--on K | --every N] [--flood-mib N] "
               "[--fault-code N]]\n"
               "fault modes: segv kill abort exit hang orphan daemon flood silent malformed text nan\n"
               "             inf zero negative slow close-stdout affinity\n",
               message);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage(("missing value after " + arg).c_str());
      }
      return argv[++i];
    };
    if (arg == "--work") {
      options.work = std::stod(value());
    } else if (arg == "--noise") {
      options.noise = std::stod(value());
    } else if (arg == "--alloc-mib") {
      options.alloc_mib = std::stod(value());
    } else if (arg == "--score") {
      options.score = std::stod(value());
    } else if (arg == "--format") {
      options.format = value();
    } else if (arg == "--exit") {
      options.exit_code = std::stoi(value());
    } else if (arg == "--crash") {
      options.crash = true;
    } else if (arg == "--hang") {
      options.hang = true;
    } else if (arg == "--stderr") {
      options.stderr_text = value();
    } else if (arg == "--fault") {
      options.fault = value();
    } else if (arg == "--counter") {
      options.counter_file = value();
    } else if (arg == "--on") {
      options.fault_on = std::stol(value());
    } else if (arg == "--every") {
      options.fault_every = std::stol(value());
    } else if (arg == "--fault-code") {
      options.fault_code = std::stoi(value());
    } else if (arg == "--flood-mib") {
      options.flood_mib = std::stod(value());
    } else if (arg == "--tag") {
      value();  // lets a test find its own processes
    } else if (arg == "--zero-chance") {
      options.zero_chance = std::stod(value());
    } else {
      usage(("unknown argument " + arg).c_str());
    }
  }
  return options;
}

// A dependent chain the compiler cannot remove or vectorise away.
std::uint64_t burn(double millions) {
  const auto iterations = static_cast<std::uint64_t>(millions * 1e6);
  std::uint64_t x = 88172645463325252ULL;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    x ^= x << 13U;
    x ^= x >> 7U;
    x ^= x << 17U;
  }
  return x;
}

// Adds one to the run count in `file` (created at 0) and returns the new count. The duel runs
// one program at a time, so a plain read-modify-write is enough.
long next_run_number(const std::string& file) {
  long count = 0;
  if (FILE* in = std::fopen(file.c_str(), "r")) {
    if (std::fscanf(in, "%ld", &count) != 1) {
      count = 0;
    }
    std::fclose(in);
  }
  ++count;
  FILE* out = std::fopen(file.c_str(), "w");
  if (out == nullptr) {
    usage(("cannot write the counter file " + file).c_str());
  }
  std::fprintf(out, "%ld\n", count);
  std::fclose(out);
  return count;
}

// The fault of this run, or empty when this run behaves.
std::string fault_of_this_run(const Options& options) {
  if (options.fault.empty()) {
    return {};
  }
  const long run = options.counter_file.empty() ? 1 : next_run_number(options.counter_file);
  if (options.fault_on > 0) {
    return run == options.fault_on ? options.fault : std::string();
  }
  if (options.fault_every > 0) {
    return run % options.fault_every == 0 ? options.fault : std::string();
  }
  return options.fault;
}

// Sleeps forever in a child whose command line still carries the parent's --tag (so a test
// finds it in the process table); with `escape`, in a new session, outside the run's process
// group, the way a daemon leaves it.
void leave_child_behind(bool escape) {
  const pid_t pid = ::fork();
  if (pid > 0 && escape) {
    ::waitpid(pid, nullptr, 0);  // the middle process, gone once the daemon exists
  }
  if (pid == 0) {
    if (escape) {
      ::setsid();
      if (::fork() != 0) {
        ::_exit(0);
      }
    }
    ::close(STDOUT_FILENO);  // the run's output ends with the parent (stderr stays open)
    for (;;) {
      ::pause();
    }
  }
}

// The faults that end or replace the run before it measures anything; returns normally for
// the others.
void fail_early(const std::string& fault, int exit_code) {
  if (fault == "segv") {
    std::raise(SIGSEGV);
  } else if (fault == "kill") {
    std::raise(SIGKILL);
  } else if (fault == "abort") {
    std::abort();
  } else if (fault == "exit") {
    std::exit(exit_code);
  } else if (fault == "hang") {
    for (;;) {
      ::pause();
    }
  } else if (fault == "silent") {
    std::exit(0);
  } else if (fault == "orphan" || fault == "daemon") {
    leave_child_behind(fault == "daemon");
  } else if (fault == "affinity") {
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      CPU_SET(cpu, &all);
    }
    ::sched_setaffinity(0, sizeof all, &all);  // undo the pinning it was started with
  }
}

// What a faulty run prints instead of its score, or null for the score itself.
const char* bad_value(const std::string& fault) {
  if (fault == "text") {
    return "fast";
  }
  if (fault == "nan") {
    return "nan";
  }
  if (fault == "inf") {
    return "inf";
  }
  if (fault == "zero") {
    return "0";
  }
  if (fault == "negative") {
    return "-1.5";
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  if (!options.stderr_text.empty()) {
    std::fprintf(stderr, "%s\n", options.stderr_text.c_str());
  }
  if (options.hang) {
    for (;;) {
      ::pause();
    }
  }
  if (options.crash) {
    std::raise(SIGSEGV);
  }
  const std::string fault = fault_of_this_run(options);
  fail_early(fault, options.fault_code);

  double work = options.work * (fault == "slow" ? 100 : 1);
  if (options.noise > 0) {
    std::mt19937_64 rng(
        static_cast<std::uint64_t>(::getpid()) ^
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::lognormal_distribution<double> factor(0.0, options.noise);
    work *= factor(rng);
  }
  std::vector<char> memory(static_cast<std::size_t>(options.alloc_mib * 1024 * 1024));
  for (std::size_t i = 0; i < memory.size(); i += 4096) {
    memory[i] = static_cast<char>(i);  // touch every page so it is resident
  }
  const auto checksum =
      burn(work) + (memory.empty() ? 0 : static_cast<unsigned char>(memory[memory.size() / 2]));

  double score = options.score >= 0 ? options.score : work;
  // A score that reads 0 in some runs, as CPU time does below one scheduler tick.
  if (options.zero_chance > 0) {
    std::mt19937_64 rng(
        static_cast<std::uint64_t>(::getpid()) * 0x9E3779B97F4A7C15ULL ^
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < options.zero_chance) {
      score = 0;
    }
  }
  if (fault == "flood") {
    const std::string line(1023, 'x');
    for (double written = 0; written < options.flood_mib * 1024 * 1024; written += 1024) {
      std::printf("%s\n", line.c_str());
    }
  }
  const std::string score_text = bad_value(fault) != nullptr ? bad_value(fault) : std::to_string(score);
  if (fault == "malformed") {
    std::printf("{\"checksum\": %llu, \"result\": {\"score\": \n", static_cast<unsigned long long>(checksum));
  } else if (options.format == "plain") {
    std::printf("checksum %llu\nscore: %s\n", static_cast<unsigned long long>(checksum), score_text.c_str());
  } else if (options.format == "json") {
    std::printf("{\"checksum\": %llu, \"result\": {\"score\": %s}}\n",
                static_cast<unsigned long long>(checksum), score_text.c_str());
  } else if (options.format == "gbench") {
    std::printf(
        "{\"context\": {\"library_build_type\": \"release\"}, \"benchmarks\": [\n"
        "  {\"name\": \"BM_Work\", \"run_type\": \"iteration\", \"iterations\": 1, \"real_time\": %.3f, "
        "\"cpu_time\": %.3f, \"time_unit\": \"ms\", \"score\": %.6f}\n]}\n",
        score, score, score);
  }
  if (fault == "close-stdout") {
    // The output is complete but the run is not: closing stdout must not end the measurement.
    std::fflush(stdout);
    ::close(STDOUT_FILENO);
    // Volatile, so that the compiler neither reuses the first result nor drops the work.
    volatile const double work_again = work;
    volatile const std::uint64_t again = burn(work_again);
    static_cast<void>(again);
  }
  return options.exit_code;
}
