#include <cmath>
#include <numeric>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/descriptive.hpp"
#include "stats/paired.hpp"

using namespace perfduel::stats;

TEST_CASE("descriptive statistics match hand-computed values", "[stats]") {
  const std::vector<double> x{2, 4, 4, 4, 5, 5, 7, 9};
  CHECK(mean(x) == 5.0);
  CHECK(variance(x) == Approx(32.0 / 7.0));
  CHECK(median(x) == 4.5);
  CHECK(quantile(x, 0.25) == 4.0);
  CHECK(quantile(x, 1.0) == 9.0);
  CHECK(std::isnan(mean(std::vector<double>{})));
  CHECK(std::isnan(variance(std::vector<double>{1.0})));
}

TEST_CASE("a constant series has that constant for mean and a point for interval", "[stats]") {
  // Six copies of log(1.1615) summed and divided by six are one ulp off the value: a
  // deterministic metric of six rounds then had a variance, and its interval a width.
  const double value = std::log(1.1615);
  const std::vector<double> x(6, value);
  REQUIRE(std::accumulate(x.begin(), x.end(), 0.0) / 6 != value);
  CHECK(mean(x) == value);
  CHECK(variance(x) == 0.0);
  const auto ci = t_interval(x, 0.95);
  REQUIRE(ci);
  CHECK(ci->ci.lo == value);
  CHECK(ci->ci.hi == value);
}

TEST_CASE("Student t quantiles match textbook tables", "[stats]") {
  CHECK(student_t_quantile(0.975, 1) == Approx(12.706).epsilon(1e-4));
  CHECK(student_t_quantile(0.975, 10) == Approx(2.228).epsilon(1e-3));
  CHECK(student_t_quantile(0.995, 20) == Approx(2.845).epsilon(1e-3));
  CHECK(student_t_quantile(0.975, 1e6) == Approx(1.95996).epsilon(1e-4));
}

TEST_CASE("t_interval matches a hand-computed interval", "[stats]") {
  // x̄ = 5, s² = 32/7, n = 8, t(7, 0.975) = 2.364624: half-width 2.364624·sqrt(32/7/8).
  const std::vector<double> x{2, 4, 4, 4, 5, 5, 7, 9};
  const auto ci = t_interval(x, 0.95);
  REQUIRE(ci);
  const double half = 2.364624 * std::sqrt(32.0 / 7.0 / 8.0);
  CHECK(ci->ci.lo == Approx(5.0 - half).epsilon(1e-5));
  CHECK(ci->ci.hi == Approx(5.0 + half).epsilon(1e-5));
  CHECK(ci->n == 8);
}

TEST_CASE("σ's upper confidence bound factor matches χ² tables", "[stats]") {
  // χ²(30): lower 5 % quantile 18.493, lower 25 % quantile 24.478 (textbook tables).
  CHECK(sigma_upper_bound_factor(31, 0.95) == Approx(std::sqrt(30 / 18.4927)).epsilon(1e-4));
  CHECK(sigma_upper_bound_factor(31, 0.75) == Approx(std::sqrt(30 / 24.4776)).epsilon(1e-4));
  CHECK(sigma_upper_bound_factor(31, 0.5) > 1.0);  // the χ² median lies below its mean
  CHECK(sigma_upper_bound_factor(1000, 0.95) < sigma_upper_bound_factor(31, 0.95));
  CHECK(std::isfinite(sigma_upper_bound_factor(0, 0.95)));  // fewer than 2 units count as 2
}

TEST_CASE("t_interval degenerate cases", "[stats]") {
  CHECK_FALSE(t_interval(std::vector<double>{1.0}, 0.95));
  const auto flat = t_interval(std::vector<double>{3, 3, 3}, 0.95);
  REQUIRE(flat);
  CHECK(flat->ci.lo == 3.0);
  CHECK(flat->ci.hi == 3.0);
}

TEST_CASE("log_ratios pairs rounds and refuses non-positive values", "[stats]") {
  const std::vector<double> a{1, 2, 4};
  const std::vector<double> b{2, 2, 1};
  const auto d = log_ratios(a, b);
  REQUIRE(d.ok());
  CHECK(d.value()[0] == Approx(std::log(2.0)));
  CHECK(d.value()[1] == 0.0);
  CHECK(d.value()[2] == Approx(std::log(0.25)));
  const std::vector<double> zero{1, 0, 4};
  CHECK(log_ratios(zero, b).error() ==
        "round 2: baseline 0 and candidate 2 must both be positive to take a log-ratio");
}
