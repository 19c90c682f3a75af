// A benchmark with known behaviour for the black-box CLI tests: it burns a chosen amount of
// CPU with optional noise, can allocate and touch memory, prints a metric in every supported
// format, and can fail in every way a real benchmark fails.
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
  double zero_chance = 0;  // chance that the printed score is 0 (a reading at its resolution)
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "fake_bench: %s\n"
               "usage: fake_bench [--work MILLIONS] [--noise SIGMA] [--alloc-mib N] [--score X]\n"
               "                  [--format plain|json|gbench|none] [--exit N] [--crash] [--hang]\n"
               "                  [--stderr TEXT] [--tag ANY] [--zero-chance P]\n",
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

  double work = options.work;
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
  if (options.format == "plain") {
    std::printf("checksum %llu\nscore: %.6f\n", static_cast<unsigned long long>(checksum), score);
  } else if (options.format == "json") {
    std::printf("{\"checksum\": %llu, \"result\": {\"score\": %.6f}}\n",
                static_cast<unsigned long long>(checksum), score);
  } else if (options.format == "gbench") {
    std::printf(
        "{\"context\": {\"library_build_type\": \"release\"}, \"benchmarks\": [\n"
        "  {\"name\": \"BM_Work\", \"run_type\": \"iteration\", \"iterations\": 1, \"real_time\": %.3f, "
        "\"cpu_time\": %.3f, \"time_unit\": \"ms\", \"score\": %.6f}\n]}\n",
        score, score, score);
  }
  return options.exit_code;
}
