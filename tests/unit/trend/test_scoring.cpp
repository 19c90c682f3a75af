// The change-point scores, against the values of the data folder's reference scorer
// (score.py --ascending) on the same cases.
#include <stdexcept>
#include <vector>

#include <catch2/catch.hpp>

#include "trend/scoring.hpp"

using namespace perfduel::trend;

TEST_CASE("matched_count pairs each true point with the nearest unused prediction", "[trend][scoring]") {
  const std::vector<std::size_t> truth{0, 10, 12};
  CHECK(matched_count(truth, std::vector<std::size_t>{0, 11}, 5) == 2);  // 11 is used by 10
  CHECK(matched_count(truth, std::vector<std::size_t>{0, 11, 13}, 5) == 3);
  CHECK(matched_count(truth, std::vector<std::size_t>{0, 18}, 5) == 1);  // 18 is 6 from 12
  CHECK(matched_count(truth, std::vector<std::size_t>{0, 17}, 5) == 2);
  CHECK(matched_count(truth, std::vector<std::size_t>{}, 5) == 0);
}

TEST_CASE("F1 and cover agree with the reference scorer", "[trend][scoring]") {
  struct Case {
    std::vector<ChangePoints> annotations;
    ChangePoints predicted;
    std::size_t length;
    double f1, precision, recall, cover;
  };
  const std::vector<Case> cases{
      {{{28}}, {27}, 100, 1.0, 1.0, 1.0, 0.9801369863013698},
      {{{}, {10, 50}}, {12, 30, 49}, 60, 0.8571428571428571, 0.75, 1.0, 0.4618686868686868},
      {{{5, 20}, {21}}, {}, 30, 0.5882352941176471, 1.0, 0.41666666666666663, 0.48444444444444446},
      {{{10, 12}}, {11}, 40, 0.8, 1.0, 0.6666666666666666, 0.9073014629049112},
      {{{117, 121}},
       {117, 384},
       500,
       0.6666666666666666,
       0.6666666666666666,
       0.6666666666666666,
       0.7546263776024096},
      {{{44}}, {44, 69, 223}, 251, 0.6666666666666666, 0.5, 1.0, 0.7888446215139442},
  };
  for (const Case& c : cases) {
    const F1Score f1 = f1_score(c.annotations, c.predicted);
    CHECK(f1.f1 == Approx(c.f1).epsilon(1e-12));
    CHECK(f1.precision == Approx(c.precision).epsilon(1e-12));
    CHECK(f1.recall == Approx(c.recall).epsilon(1e-12));
    CHECK(covering(c.annotations, c.predicted, c.length) == Approx(c.cover).epsilon(1e-12));
  }
}

TEST_CASE("Scores of degenerate predictions", "[trend][scoring]") {
  const std::vector<ChangePoints> none{{}};
  // Nothing marked and nothing predicted: perfect.
  CHECK(f1_score(none, {}).f1 == 1.0);
  CHECK(covering(none, {}, 50) == 1.0);
  // Points at 0, past the end, or repeated cut nothing.
  CHECK(covering(none, {0, 50, 70}, 50) == 1.0);
  CHECK(covering(std::vector<ChangePoints>{{25}}, {25, 25}, 50) == 1.0);
  CHECK_THROWS_AS(f1_score(std::vector<ChangePoints>{}, {}), std::invalid_argument);
  CHECK_THROWS_AS(covering(std::vector<ChangePoints>{}, {}, 10), std::invalid_argument);
}
