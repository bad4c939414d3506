// cuprobe/measure/cupti.cuh: hardware counters through CUPTI's range profiler, loaded at run time.
//
//   auto req = cuprobe::counters::parse("dram,sol");
//   cuprobe::counters::profiler p(req);            // checks the names against this card's chip
//   if (p.ready()) {
//     auto r = p.collect([&] { my_kernel<<<g, b, 0, s>>>(...); }, s, 1.0);  // one pass per call
//     std::printf("%.0f DRAM bytes read\n", *r.get("dram__bytes_read.sum"));
//   } else std::printf("%s\n", p.missing().c_str());
//
// Nothing links against CUPTI: libcupti is opened with dlopen (CUPROBE_CUPTI_LIBRARY names the
// file; else the path CMake found, then the loader's search path and the toolkit's usual places),
// and its profiler headers are used where the compiler finds them (the CUDA toolkit ships them;
// -DCUPROBE_WITHOUT_CUPTI, or CMake's CUPROBE_WITH_CUPTI=OFF, builds as if it did not).
// Without either, or where the driver refuses profiling (ERR_NVGPUCTRPERM), or under a tool that
// owns the profiler (compute-sanitizer, ncu, nsys: CUDA_INJECTION64_PATH is set), missing() says
// why in one sentence and nothing is collected; measurements stand as they are.
//
// collect() runs the callable once per replay pass (user replay: each pass re-runs the work, so
// the callable must be repeatable, as a measurement's sample is). Each kernel it launches is a
// range of its own (auto range, as ncu counts kernels), or, for graph launches, one user range
// covers it all (range_kind); the ranges combine into totals over everything the callable
// enqueued (combine_ranges), and counts are divided by `per_range` (the launches x iterations the
// callable covers). The timed samples never run here:
// the runner calls collect() after them (measure/runner.cuh).
#pragma once

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/counter_sets.cuh"

#if !defined(CUPROBE_WITHOUT_CUPTI) && __has_include(<cupti_range_profiler.h>) && \
    __has_include(<cupti_profiler_host.h>) && __has_include(<cupti_profiler_target.h>) && \
    __has_include(<cupti_target.h>)
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#define CUPROBE_CUPTI_HEADERS 1  ///< CUPTI's profiler headers are used: counters can be collected
#else
#define CUPROBE_CUPTI_HEADERS 0  ///< no CUPTI profiler headers: counters say why they are missing
#endif

namespace cuprobe::counters {

/// Why a tool that owns the profiler is attached to this process, or "" when none is seen:
/// compute-sanitizer sets NV_SANITIZER_INJECTION_PORT_BASE, ncu and nsys
/// NV_NSIGHT_INJECTION_PORT_BASE, other tools CUDA_INJECTION64_PATH; cuprobe's sanitizer pass sets
/// CUPROBE_UNDER_SANITIZER. A tool not seen here still makes CUPTI refuse with
/// CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, which profiler says in the same words.
CUPROBE_DECL std::string profiler_owner();

#if CUPROBE_CUPTI_HEADERS

namespace detail {

/// The CUPTI entry points cuprobe calls, resolved from libcupti with dlsym.
struct cupti_api {
  std::string why;  ///< why it could not be loaded ("" when loaded)
  std::string path;
  decltype(&cuptiGetResultString) result_string = nullptr;
  decltype(&cuptiProfilerInitialize) initialize = nullptr;
  decltype(&cuptiDeviceGetChipName) chip_name = nullptr;
  decltype(&cuptiProfilerGetCounterAvailability) availability = nullptr;
  decltype(&cuptiProfilerHostInitialize) host_init = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) host_deinit = nullptr;
  decltype(&cuptiProfilerHostGetMetricProperties) host_properties = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) host_add = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) host_image_size = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) host_image = nullptr;
  decltype(&cuptiProfilerHostGetNumOfPasses) host_passes = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) host_evaluate = nullptr;
  decltype(&cuptiRangeProfilerEnable) enable = nullptr;
  decltype(&cuptiRangeProfilerDisable) disable = nullptr;
  decltype(&cuptiRangeProfilerSetConfig) set_config = nullptr;
  decltype(&cuptiRangeProfilerStart) start = nullptr;
  decltype(&cuptiRangeProfilerStop) stop = nullptr;
  decltype(&cuptiRangeProfilerPushRange) push = nullptr;
  decltype(&cuptiRangeProfilerPopRange) pop = nullptr;
  decltype(&cuptiRangeProfilerDecodeData) decode = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataSize) data_size = nullptr;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) data_init = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) data_info = nullptr;

  static cupti_api& instance() {
    static cupti_api a = load();
    return a;
  }
  /// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" for `r`.
  std::string name_of(CUptiResult r) const {
    const char* s = nullptr;
    if (result_string && result_string(r, &s) == CUPTI_SUCCESS && s) return s;
    return "CUPTI error " + std::to_string(int(r));
  }

 private:
  static cupti_api load() {
    cupti_api a;
    std::vector<std::string> tries;
    if (const char* e = std::getenv("CUPROBE_CUPTI_LIBRARY"); e && *e) tries.push_back(e);
#ifdef CUPROBE_CUPTI_LIBRARY_HINT
    tries.push_back(CUPROBE_CUPTI_LIBRARY_HINT);
#endif
    for (const char* n :
         {"libcupti.so", "libcupti.so.13", "libcupti.so.12",
          "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so", "/usr/local/cuda/lib64/libcupti.so"})
      tries.push_back(n);
    void* lib = nullptr;
    for (const auto& t : tries)
      if ((lib = dlopen(t.c_str(), RTLD_NOW | RTLD_LOCAL))) {
        a.path = t;
        break;
      }
    if (!lib) {
      a.why = "libcupti could not be opened (tried " + tries.front() + " and " +
              std::to_string(tries.size() - 1) + " more; set CUPROBE_CUPTI_LIBRARY)";
      return a;
    }
    bool all = true;
    const auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && all) {
        all = false;
        a.why = a.path + " has no " + name + " (CUPTI older than the range profiler, CUDA 12.6)";
      }
    };
    get(a.result_string, "cuptiGetResultString");
    get(a.initialize, "cuptiProfilerInitialize");
    get(a.chip_name, "cuptiDeviceGetChipName");
    get(a.availability, "cuptiProfilerGetCounterAvailability");
    get(a.host_init, "cuptiProfilerHostInitialize");
    get(a.host_deinit, "cuptiProfilerHostDeinitialize");
    get(a.host_properties, "cuptiProfilerHostGetMetricProperties");
    get(a.host_add, "cuptiProfilerHostConfigAddMetrics");
    get(a.host_image_size, "cuptiProfilerHostGetConfigImageSize");
    get(a.host_image, "cuptiProfilerHostGetConfigImage");
    get(a.host_passes, "cuptiProfilerHostGetNumOfPasses");
    get(a.host_evaluate, "cuptiProfilerHostEvaluateToGpuValues");
    get(a.enable, "cuptiRangeProfilerEnable");
    get(a.disable, "cuptiRangeProfilerDisable");
    get(a.set_config, "cuptiRangeProfilerSetConfig");
    get(a.start, "cuptiRangeProfilerStart");
    get(a.stop, "cuptiRangeProfilerStop");
    get(a.push, "cuptiRangeProfilerPushRange");
    get(a.pop, "cuptiRangeProfilerPopRange");
    get(a.decode, "cuptiRangeProfilerDecodeData");
    get(a.data_size, "cuptiRangeProfilerGetCounterDataSize");
    get(a.data_init, "cuptiRangeProfilerCounterDataImageInitialize");
    get(a.data_info, "cuptiRangeProfilerGetCounterDataInfo");
    return a;
  }
};

/// Throws cuprobe::error "counters: <what>: <CUPTI's name for r>" unless r is CUPTI_SUCCESS.
inline void cupti_check(CUptiResult r, const std::string& what) {
  if (r == CUPTI_SUCCESS) return;
  std::string m = "counters: " + what + ": " + cupti_api::instance().name_of(r);
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
    m += " (the driver lets only administrators read counters: ERR_NVGPUCTRPERM; "
         "NVreg_RestrictProfilingToAdminUsers=0 or root lifts it)";
  throw error(m);
}

template <class P>
P params_of(std::size_t size) {
  P p{};
  p.structSize = size;
  return p;
}
#define CUPROBE_CUPTI_PARAMS(T) ::cuprobe::counters::detail::params_of<T>(T##_STRUCT_SIZE)

}  // namespace detail

/// The host half of a request: its metrics configured for one chip. Needs no GPU (the chip is
/// named), so names are checked and images evaluated on any machine with libcupti.
class host_config {
 public:
  /// Configures `metrics` for `chip` ("GH100"), with the device's counter availability image
  /// when one was read. Throws cuprobe::error, one sentence, for a metric the chip does not have.
  host_config(std::string chip, std::vector<std::string> metrics,
              const std::vector<std::uint8_t>& availability = {})
      : chip_(std::move(chip)), metrics_(std::move(metrics)) {
    auto& api = detail::cupti_api::instance();
    require(api.why.empty(), "counters: " + api.why);
    auto init = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = chip_.c_str();
    init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    detail::cupti_check(api.host_init(&init), "the host profiler for chip " + chip_);
    host_.p = init.pHostObject;
    for (const auto& m : metrics_) {
      auto p = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
      p.pHostObject = host_.p;
      p.pMetricName = m.c_str();
      require(api.host_properties(&p) == CUPTI_SUCCESS,
              "counters: " + chip_ + " has no metric \"" + m + "\" (sets: " + set_names() +
                  "; `ncu --query-metrics --chip " + lower(chip_) + "` lists its metrics)");
      units_.push_back(p.pDimUnit ? p.pDimUnit : "");
    }
    std::vector<const char*> names = c_names();
    auto add = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host_.p;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    detail::cupti_check(api.host_add(&add), "adding the metrics to the configuration");
    auto size = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = host_.p;
    detail::cupti_check(api.host_image_size(&size), "the configuration's size");
    config_.resize(size.configImageSize);
    auto img = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    img.pHostObject = host_.p;
    img.configImageSize = config_.size();
    img.pConfigImage = config_.data();
    detail::cupti_check(api.host_image(&img), "the configuration image");
    auto passes = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    passes.configImageSize = config_.size();
    passes.pConfigImage = config_.data();
    detail::cupti_check(api.host_passes(&passes), "the number of passes");
    passes_ = passes.numOfPasses;
  }

  const std::string& chip() const { return chip_; }
  const std::vector<std::string>& metrics() const { return metrics_; }
  const std::vector<std::string>& units() const { return units_; }  ///< per metric
  const std::vector<std::uint8_t>& config_image() const { return config_; }
  /// metrics() as the C strings CUPTI takes (valid while this object lives).
  std::vector<const char*> c_names() const {
    std::vector<const char*> n;
    for (const auto& m : metrics_) n.push_back(m.c_str());
    return n;
  }
  std::size_t passes() const { return passes_; }  ///< replay passes the metrics need

  /// The metrics' values in range `range` of a decoded counter data image, in metrics() order.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& image,
                               std::size_t range = 0) const {
    auto& api = detail::cupti_api::instance();
    std::vector<const char*> names = c_names();
    std::vector<double> v(names.size(), 0.0);
    auto p = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    p.pHostObject = host_.p;
    p.pCounterDataImage = image.data();
    p.counterDataImageSize = image.size();
    p.rangeIndex = range;
    p.ppMetricNames = names.data();
    p.numMetrics = names.size();
    p.pMetricValues = v.data();
    detail::cupti_check(api.host_evaluate(&p), "evaluating the counter data");
    return v;
  }

  /// A result of the metrics in the `ranges` ranges of `image`, combined (combine_ranges, the
  /// durations from gpu__time_duration.sum when requested): labels, units, counts divided by
  /// `per_range`.
  result to_result(const std::string& spec, const std::vector<std::uint8_t>& image,
                   std::size_t ranges, double per_range,
                   range_kind kind = range_kind::kernel) const {
    result r;
    r.spec = spec;
    r.chip = chip_;
    r.passes = passes_;
    r.per_range = per_range;
    r.range = kind;
    r.ranges = ranges;
    std::vector<std::vector<double>> per(ranges);
    std::vector<double> durations;
    const auto at = std::find(metrics_.begin(), metrics_.end(), "gpu__time_duration.sum");
    for (std::size_t k = 0; k < ranges; ++k) {
      per[k] = evaluate(image, k);
      if (at != metrics_.end()) durations.push_back(per[k][std::size_t(at - metrics_.begin())]);
    }
    const auto v = combine_ranges(metrics_, per, durations);
    for (std::size_t i = 0; i < metrics_.size(); ++i)
      r.values.push_back({metrics_[i], label_of(metrics_[i]),
                          is_count(metrics_[i]) ? v[i] / per_range : v[i], units_[i]});
    return r;
  }

 private:
  static std::string lower(std::string s) {
    for (char& c : s) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
  }
  std::string chip_;
  std::vector<std::string> metrics_, units_;
  std::vector<std::uint8_t> config_;
  std::size_t passes_ = 0;
  struct host_handle {  // owns the host object, deinitialised when dropped (or the ctor throws)
    CUpti_Profiler_Host_Object* p = nullptr;
    host_handle() = default;
    host_handle(host_handle&& o) noexcept : p(o.p) { o.p = nullptr; }
    host_handle& operator=(host_handle&& o) noexcept {
      std::swap(p, o.p);
      return *this;
    }
    ~host_handle() {
      if (!p) return;
      auto d = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
      d.pHostObject = p;
      detail::cupti_api::instance().host_deinit(&d);
    }
  };
  host_handle host_;
};

/// The target half: a request set up on the current device, ready to profile callables.
class profiler {
 public:
  /// Parses nothing: takes a parsed request. An empty request, or one that cannot run here,
  /// leaves ready() false and missing() saying why; a metric the chip lacks throws (host_config).
  explicit profiler(request req) : req_(std::move(req)) {
    if (req_.empty()) return;
    if (missing_ = profiler_owner(); !missing_.empty()) return;
    auto& api = detail::cupti_api::instance();
    if (!api.why.empty()) {
      missing_ = api.why;
      return;
    }
    int dev = 0;
    CUPROBE_CHECK(cudaGetDevice(&dev));
    CUPROBE_CHECK(cudaFree(nullptr));  // the primary context exists and is current
    auto init = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    if (!usable(api.initialize(&init), "initialising the profiler")) return;
    auto chip = CUPROBE_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = std::size_t(dev);
    if (!usable(api.chip_name(&chip), "the chip's name")) return;
    auto avail = CUPROBE_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    if (!usable(api.availability(&avail), "the counter availability")) return;
    std::vector<std::uint8_t> image(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = image.data();
    if (!usable(api.availability(&avail), "the counter availability")) return;
    host_.emplace(chip.pChipName, req_.metrics, image);
  }

  bool ready() const { return host_.has_value(); }                    ///< counters can be collected
  const std::string& missing() const { return missing_; }             ///< why not, in one sentence
  const request& req() const { return req_; }                         ///< the request as parsed
  std::size_t passes() const { return host_ ? host_->passes() : 0; }  ///< replay passes needed

  /// The most kernels one profiled sample may launch in kernel ranges (the counter data image
  /// holds this many ranges; a sample with more falls back to one range: measure/counter_pass.cuh).
  static constexpr std::size_t max_kernels = 32;
  /// Keep each result's counter data image (result::image, for save_image); off by default.
  void keep_images(bool on) { keep_ = on; }

  /// Runs `once` (which enqueues one sample's work on `s`) once per replay pass and returns the
  /// values, counts divided by `per_range`. `kind`: each kernel its own range, combined, or one
  /// range around the sample (range_kind). `before` runs before each pass, outside the ranges
  /// (the L2 flush). Each wait on `s` lasts at most `limit_s` (core/watchdog.cuh). A CUPTI
  /// failure throws cuprobe::error naming the step.
  template <class Once, class Before>
  result collect(Once&& once, cudaStream_t s, double per_range, Before&& before,
                 double limit_s = default_watchdog_s(), range_kind kind = range_kind::kernel) {
    require(ready(), "counters: " + (missing_.empty() ? std::string("none asked for") : missing_));
    auto& api = detail::cupti_api::instance();
    const bool per_kernel = kind == range_kind::kernel;
    const std::size_t most = per_kernel ? max_kernels : 1;
    CUcontext ctx = nullptr;
    current_context(ctx);
    auto en = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    en.ctx = ctx;
    detail::cupti_check(api.enable(&en), "enabling the range profiler");
    struct disabler {
      CUpti_RangeProfiler_Object* o;
      ~disabler() {
        auto d = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
        d.pRangeProfilerObject = o;
        detail::cupti_api::instance().disable(&d);
      }
    } off{en.pRangeProfilerObject};
    std::vector<const char*> names = host_->c_names();
    auto size = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = off.o;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = most;
    size.maxNumRangeTreeNodes = std::uint32_t(most);
    detail::cupti_check(api.data_size(&size), "the counter data size");
    std::vector<std::uint8_t> data(size.counterDataSize);
    auto di = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    di.pRangeProfilerObject = off.o;
    di.counterDataSize = data.size();
    di.pCounterData = data.data();
    detail::cupti_check(api.data_init(&di), "initialising the counter data");
    auto cfg = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    cfg.pRangeProfilerObject = off.o;
    cfg.configSize = host_->config_image().size();
    cfg.pConfig = host_->config_image().data();
    cfg.counterDataImageSize = data.size();
    cfg.pCounterDataImage = data.data();
    cfg.range = per_kernel ? CUPTI_AutoRange : CUPTI_UserRange;
    cfg.replayMode = CUPTI_UserReplay;
    cfg.maxRangesPerPass = most;
    cfg.numNestingLevels = 1;
    cfg.minNestingLevel = 1;
    cfg.passIndex = 0;
    cfg.targetNestingLevel = 1;
    detail::cupti_check(api.set_config(&cfg), "configuring the range profiler");
    std::size_t passes = 0;
    for (bool all = false; !all;) {
      require(++passes <= 64, "counters: CUPTI asked for more than 64 passes");
      before();
      wait_for(s, "the work before a counter pass", limit_s);
      auto st = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
      st.pRangeProfilerObject = off.o;
      detail::cupti_check(api.start(&st), "starting pass " + std::to_string(passes));
      auto push = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
      push.pRangeProfilerObject = off.o;
      push.pRangeName = "cuprobe";
      if (!per_kernel) detail::cupti_check(api.push(&push), "opening the range");
      once();
      wait_for(s, "a counter pass", limit_s);
      auto pop = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
      pop.pRangeProfilerObject = off.o;
      if (!per_kernel) detail::cupti_check(api.pop(&pop), "closing the range");
      auto sp = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
      sp.pRangeProfilerObject = off.o;
      detail::cupti_check(api.stop(&sp), "ending pass " + std::to_string(passes));
      all = sp.isAllPassSubmitted != 0;
    }
    auto dec = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    dec.pRangeProfilerObject = off.o;
    detail::cupti_check(api.decode(&dec), "decoding the counters");
    require(dec.numOfRangeDropped == 0,
            "counters: CUPTI dropped " + std::to_string(dec.numOfRangeDropped) +
                " ranges: one sample launched more than " + std::to_string(most) + " kernels");
    auto info = CUPROBE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    detail::cupti_check(api.data_info(&info), "the counter data's ranges");
    require(info.numTotalRanges >= 1, "counters: no kernel in the sample (a copy or a memset)");
    require(info.numTotalRanges <= most,
            "counters: the counter data holds " + std::to_string(info.numTotalRanges) + " ranges");
    result r = host_->to_result(req_.spec, data, info.numTotalRanges, per_range, kind);
    r.passes = passes;
    if (keep_) r.image = std::move(data);
    return r;
  }
  template <class Once>
  result collect(Once&& once, cudaStream_t s, double per_range = 1) {
    return collect(std::forward<Once>(once), s, per_range, [] {});
  }

 private:
  bool usable(CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return true;
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
      missing_ =
          "another tool owns the profiler (CUPTI: " + detail::cupti_api::instance().name_of(r) +
          ")";
      return false;
    }
    try {
      detail::cupti_check(r, what);
    } catch (const error& e) {
      missing_ = e.what();
      missing_.erase(0, missing_.compare(0, 9, "cuprobe: ") == 0 ? 9 : 0);
    }
    return false;
  }
  static void current_context(CUcontext& ctx) {
    using get_t = CUresult (*)(CUcontext*);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    CUPROBE_CHECK(
        cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q));
    require(fn && q == cudaDriverEntryPointSuccess, "counters: cuCtxGetCurrent is not available");
    require(reinterpret_cast<get_t>(fn)(&ctx) == CUDA_SUCCESS && ctx,
            "counters: no current CUDA context");
  }
  request req_;
  std::string missing_;
  bool keep_ = false;
  std::optional<host_config> host_;
};

#undef CUPROBE_CUPTI_PARAMS

#else  // no CUPTI headers: the same interface, never ready

/// Without CUPTI's headers: the same interface as with them, never ready, saying why.
class profiler {
 public:
  /// Takes a parsed request; missing() says why it gets nothing (when it asks for something).
  explicit profiler(request req) : req_(std::move(req)) {
    if (!req_.empty())
      missing_ = profiler_owner().empty()
                     ? "cuprobe was compiled without CUPTI's profiler headers "
                       "(cupti_range_profiler.h, from the CUDA toolkit) or with "
                       "CUPROBE_WITHOUT_CUPTI"
                     : profiler_owner();
  }
  bool ready() const { return false; }                     ///< never: no CUPTI
  const std::string& missing() const { return missing_; }  ///< why, in one sentence
  const request& req() const { return req_; }              ///< the request as parsed
  std::size_t passes() const { return 0; }                 ///< none
  void keep_images(bool) {}                                ///< nothing to keep
  /// Throws cuprobe::error with missing(): nothing can be collected (collect's arguments).
  template <class... Args>
  result collect(Args&&...) {
    throw error("counters: " + missing_);
  }

 private:
  request req_;
  std::string missing_;
};

#endif

/// Writes a result's counter data image (result::image) to `path`, for host_config::evaluate
/// elsewhere (a host test, a later analysis).
CUPROBE_DECL void save_image(const result& r, const std::string& path);

/// Reads a counter data image written by save_image.
CUPROBE_DECL std::vector<std::uint8_t> load_image(const std::string& path);

}  // namespace cuprobe::counters

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/cupti.cuh"
#endif
