// A tiny "benchmark" whose run time follows the bench_diff drift model in real wall-clock
// time: latency = λ·α(t)·β, with α(t) = 1.5 + 0.5·sin(2πt/60 s) (between 1 and 2, t the
// wall clock, so every process started at the same moment sees the same α) and β log-normal
// with σ = 0.28, drawn fresh in each process. It sleeps rather than burns CPU, so it does not
// disturb the other work on a shared machine, and the drift is purely the model's.
// Usage: perfduel_drift_program [λ in milliseconds, default 5]

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <random>
#include <thread>

int main(int argc, char** argv) {
  const double lambda_ms = argc > 1 ? std::atof(argv[1]) : 5.0;
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const double t = std::fmod(std::chrono::duration<double>(now).count(), 60.0);
  const double alpha = 1.5 + 0.5 * std::sin(2.0 * std::numbers::pi * t / 60.0);
  std::random_device entropy;
  std::mt19937_64 rng((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
  std::lognormal_distribution<double> beta(0.0, 0.28);
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(lambda_ms * alpha * beta(rng)));
  return 0;
}
