#include "machine.hpp"

namespace perfduel::validation {

const std::vector<NoiseModel> k_models{
    {"iid", Kind::iid, 0, 0.02, "iid log-normal, σ = 0.03 per run"},
    {"drift", Kind::drift, 0, 0.10, "λ·α(t)·β: α = 1.5 + 0.5 sin(2πt/60 s + φ), β log-normal σ = 0.28"},
    {"pareto", Kind::pareto, 0, 0.04,
     "log-normal σ = 0.02; 3 % of runs × (1 + Pareto(x_m = 0.2, shape 1.5))"},
    {"ar1-0.5", Kind::ar1_shared, 0.5, 0.02,
     "machine noise AR(1) ρ = 0.5 over runs in time order, σ = 0.05, + iid 0.01"},
    {"ar1-0.9", Kind::ar1_shared, 0.9, 0.02,
     "machine noise AR(1) ρ = 0.9 over runs in time order, σ = 0.05, + iid 0.01"},
    {"ar1-side-0.5", Kind::ar1_side, 0.5, 0.04,
     "each binary's own AR(1) ρ = 0.5 over its runs, σ = 0.03 (d itself is AR(1): tests batching)"},
    {"bimodal", Kind::bimodal, 0, 0.04, "30 % of runs in a slow mode × 1.15, log-normal σ = 0.01"},
};

}  // namespace perfduel::validation
