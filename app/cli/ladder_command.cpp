// `ladder`: one input in half, bf16, float and double; each sum's error, time and bandwidth.
#include <cmath>
#include <nlohmann/json.hpp>

#include "../backend/ladder.h"
#include "../core/catalog.h"
#include "../core/input.h"
#include "../core/text.h"

#include "commands.h"

namespace rl::cli {
// reduction-lab ladder: one input through one algorithm in half, bf16, float and double.
Handler ladder_command(CLI::App& cmd) {
  struct Options {
    std::string algorithm = "warp-shuffle-vectorized", size = "2^20", input = "random:1", backend = "auto";
    std::string format = "text";
    double seconds = 0.5;
  };
  auto o = std::make_shared<Options>();
  cmd.add_option("--algorithm,-a", o->algorithm,
                 "An algorithm that takes half and bf16 (default warp-shuffle-vectorized)")
      ->check(CLI::IsMember(core::algorithm_ids()));
  const CLI::Option* size = cmd.add_option("--size,-n", o->size, "Elements: N or 2^K, at most 2^27 (default 2^20)");
  cmd.add_option("--input", o->input, "iota | ones | random[:SEED] | PATH (numbers file): rounded to each rung's type");
  cmd.add_option("--backend", o->backend, "auto | cuda | sim (sim: the CPU model's sums, untimed)")
      ->check(CLI::IsMember({"auto", "cuda", "sim"}));
  cmd.add_option("--seconds", o->seconds, "Time for each rung's samples, at most")
      ->check(finite("--seconds"))  // CLI::Range lets NaN through
      ->check(CLI::Range(0.01, 60.0));
  cmd.add_option("--format", o->format, "text | json")->check(CLI::IsMember({"text", "json"}));
  return [o, size](const Io& io) {
    std::string why;
    const auto spec = core::parse_input_spec(o->input, &why);
    if (!spec) throw UsageError("--input: " + why);
    const std::size_t n = size_option("--size", o->size, std::size_t(1) << 20);
    if (n > kMaxTraceSize) throw UsageError("--size: the ladder takes at most 2^27 elements, got " + o->size);
    const std::vector<double> values = spec->kind == core::InputSpec::Kind::File
                                           ? core::read_input_file(spec->path, core::DType::Double, kMaxTraceSize)
                                           : core::generate_input(*spec, n, core::DType::Double);
    if (spec->kind == core::InputSpec::Kind::File && size->count() > 0 && values.size() != n)
      throw UsageError("--size " + o->size + " disagrees with the " + std::to_string(values.size()) + " numbers in " +
                       core::printable(spec->path));
    backend::LadderRun run;
    try {
      run = backend::run_ladder(o->algorithm, values, kBackends.at(o->backend), o->seconds);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (o->format == "text") {
      io.out << backend::ladder_text(run);
      return 0;
    }
    nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
    for (const auto& r : run.rungs)
      rungs.push_back({{"type", core::narrow_name(r.rung.element)},
                       {"adds_in", core::narrow_name(r.rung.accumulator)},
                       {"result", std::isfinite(r.rung.result)
                                      ? nlohmann::ordered_json(r.rung.result)
                                      : nlohmann::ordered_json(core::format_value(r.rung.result, core::DType::Double))},
                       {"reference", double(r.rung.reference)},
                       {"ulps", r.rung.ulps ? nlohmann::ordered_json(*r.rung.ulps) : nlohmann::ordered_json(nullptr)},
                       {"median_us", r.median_us},
                       {"gbps", r.gbps},
                       {"noise_pct", r.noise_pct}});
    io.out << nlohmann::ordered_json{{"algorithm", run.algorithm},
                                     {"device", run.device},
                                     {"gpu", run.gpu},
                                     {"date", run.date},
                                     {"peak_gbps", run.peak_gbps},
                                     {"n", values.size()},
                                     {"input", core::to_string(*spec)},
                                     {"rungs", rungs}}
                  .dump(2)
           << "\n";
    return 0;
  };
}

}  // namespace rl::cli
