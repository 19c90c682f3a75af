// The simulated machine of the validation: the noise models and a clock that drifts.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "duel/analysis.hpp"

namespace perfduel::validation {

using Rng = std::mt19937_64;

constexpr double k_lambda = 0.010;  // nominal run time, seconds (drives the drift clock)
constexpr int k_max_rounds = 1000;  // simulated budget (the driver's default is 2000)

// The shape of a model's noise (Machine::noise says what each does).
enum class Kind { iid, drift, pareto, ar1_shared, ar1_side, bimodal };

// A noise model: its noise, and the threshold its gates use.
struct NoiseModel {
  std::string name;
  Kind kind;
  double rho;        // AR(1) coefficient where it applies
  double threshold;  // T: the gate's target CI width, chosen so the width rule needs ~50–300 rounds
  std::string description;
};

// The noise models the tables are computed under, in the order they are printed.
extern const std::vector<NoiseModel> k_models;

// The simulated machine: a clock and the noise state of one gate.
class Machine {
 public:
  Machine(const NoiseModel& model, std::uint64_t seed, double lambda = k_lambda)
      : m_model(model), m_rng(seed), m_lambda(lambda) {
    std::uniform_real_distribution<double> phase(0.0, 2.0 * std::numbers::pi);
    m_phase = phase(m_rng);
    std::normal_distribution<double> start(0.0, 1.0);
    m_shared = start(m_rng) * 0.05;
    m_side[0] = start(m_rng) * 0.03;
    m_side[1] = start(m_rng) * 0.03;
  }

  // One run of `side` whose true time is λ·`factor`; advances the clock.
  double run(Side side, double factor) {
    const double latency = m_lambda * factor * noise(side);
    m_clock += latency;
    return latency;
  }

  bool coin() { return std::uniform_int_distribution<int>(0, 1)(m_rng) == 1; }

  // One round in random order, the candidate λ·(1 + `delta`): {baseline time, candidate time}.
  std::pair<double, double> round(double delta) {
    if (coin()) {
      const double candidate = run(Side::candidate, 1.0 + delta);
      return {run(Side::baseline, 1.0), candidate};
    }
    const double baseline = run(Side::baseline, 1.0);
    return {baseline, run(Side::candidate, 1.0 + delta)};
  }
  Rng& rng() { return m_rng; }

 private:
  double normal(double sigma) { return std::normal_distribution<double>(0.0, sigma)(m_rng); }
  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(m_rng); }

  double noise(Side side) {
    switch (m_model.kind) {
      case Kind::iid:
        return std::exp(normal(0.03));
      case Kind::drift: {
        const double alpha = 1.5 + 0.5 * std::sin(2.0 * std::numbers::pi * m_clock / 60.0 + m_phase);
        return alpha * std::exp(normal(0.28));
      }
      case Kind::pareto: {
        double spike = 1.0;
        if (uniform() < 0.03) {
          spike += 0.2 / std::pow(1.0 - uniform(), 1.0 / 1.5);  // Pareto by inversion
        }
        return std::exp(normal(0.02)) * spike;
      }
      case Kind::ar1_shared: {
        const double rho = m_model.rho;
        m_shared = rho * m_shared + normal(0.05 * std::sqrt(1.0 - rho * rho));
        return std::exp(m_shared + normal(0.01));
      }
      case Kind::ar1_side: {
        const double rho = m_model.rho;
        double& state = m_side[side == Side::baseline ? 0 : 1];
        state = rho * state + normal(0.03 * std::sqrt(1.0 - rho * rho));
        return std::exp(state);
      }
      case Kind::bimodal:
        return (uniform() < 0.3 ? 1.15 : 1.0) * std::exp(normal(0.01));
    }
    return 1.0;
  }

  const NoiseModel& m_model;
  Rng m_rng;
  double m_lambda;
  double m_clock = 0;
  double m_phase = 0;
  double m_shared = 0;
  double m_side[2] = {0, 0};
};

}  // namespace perfduel::validation
