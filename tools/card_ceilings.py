"""The ceiling of each headline metric on one card, to compare cards of different GPU models.

tools/compare.py (two summaries or records of different models) and tools/cards_md.py (the page
across every reference set, docs/results/README.md) both place each metric against its own
card's ceiling here, so that a figure of one model is never read against another model's.

A card is a cuprobe.summary/1 file or a cuprobe.ceilings/1 record; its model is its device name,
its reference-set folder gpu_model.folder(name). A metric's ceiling comes from the first of:
  record     the card's own ceilings record: ceilings_dir()/<device UUID>.json (as the library:
             CUPROBE_CEILINGS_DIR, else $XDG_CACHE_HOME/cuprobe/ceilings, else
             ~/.cache/cuprobe/ceilings), when it names the same UUID;
  reference  the reference set of its model: reference_dir()/<folder>/summary.json
             (CUPROBE_REFERENCE_DIR, else this checkout's docs/results, else the installed
             package's share/cuprobe/results);
  nominal    a figure from the device block or the model: DRAM nominal_dram_gb_per_s (else bus
             width x memory clock x 2), 128 B/clk/SM for L1 and shared memory, the SM clock's
             maximum for clocks, the L2 size for the L2's capacity, the PCIe bus figure the
             summary measured beside (bus.nominal.gbps), the peak model for FLOP (the rate over
             its fraction_of_peak, as the summary gives them: a FLOP rate of another clock is
             scaled to its clock), 1 for a fraction of peak.
A ratio (a fraction, vs_*, a prediction) has the ceiling 1: the models predict it equal on every
card. A file is never its own ceiling: a record or reference set that is the compared file (the
same path, or the same UUID, commit and date) is skipped for it. The two sides of a comparison
use the same kind of ceiling: measured (record or reference) where both have one, else nominal
where both have one (a measured ceiling sits a few percent below nominal, so a fraction of one
against a fraction of the other would show that gap, not the cards).

Two cards agree on a metric when their fractions differ by at most the threshold
(|fraction B / fraction A - 1| <= threshold): "as the models predict (xF)", F the predicted factor
B/A, ceiling B over ceiling A; else "differs from the models (fA vs fB of ceiling)". A metric
without a ceiling on a side is "not comparable across models", with the reason. Standard library
only.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import gpu_model  # noqa: E402  (the reference-set folder rule)
import validate_results as schema  # noqa: E402  (the schema module beside this file)

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
TYPES = ("bf16", "f16", "tf32", "e4m3", "e5m2")
RATIO = re.compile(r"fraction|(^|[._])vs_|_vs_|\.predicted$|_visible$")
TIME = re.compile(r"[._](cycles|ns|us|ms)$|latency|overhead")
UNITS = ((".tbps", "TB/s"), ("_tbps", "TB/s"), (".gbps", "GB/s"), (".tflops", "TFLOP/s"),
         ("_tflops", "TFLOP/s"), ("_mhz", "MHz"), ("bytes_per_clk_sm", "B/clk/SM"),
         ("bytes_per_clk", "B/clk"), ("_bytes", "bytes"), ("cycles", "cycles"), (".ns", "ns"),
         ("_ns", "ns"), ("_us", "us"), ("_ms", "ms"), ("_w", "W"))


def unit_of(key):
    return next((u for end, u in UNITS if key.endswith(end)), "")


def reference_dir():
    """CUPROBE_REFERENCE_DIR, else this checkout's docs/results, else the installed sets beside
    this file (<prefix>/share/cuprobe/results)."""
    if os.environ.get("CUPROBE_REFERENCE_DIR"):
        return os.environ["CUPROBE_REFERENCE_DIR"]
    checkout = os.path.join(ROOT, "docs", "results")
    installed = os.path.join(os.path.dirname(os.path.realpath(__file__)), "results")
    return checkout if os.path.isdir(checkout) or not os.path.isdir(installed) else installed


def ceilings_dir():
    if os.environ.get("CUPROBE_CEILINGS_DIR"):
        return os.environ["CUPROBE_CEILINGS_DIR"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", "/tmp"), ".cache")
    return os.path.join(cache, "cuprobe", "ceilings")


def model_name(doc):
    """The GPU model a summary or record names, or None."""
    dev = doc.get("device") if isinstance(doc, dict) else None
    name = dev.get("name") if isinstance(dev, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def different_models(doc_a, doc_b):
    a, b = model_name(doc_a), model_name(doc_b)
    return a is not None and b is not None and gpu_model.folder(a) != gpu_model.folder(b)


def num(v):
    return f"{v:.4g}"


def nominal_dram(device):
    """(GB/s, how) of a device block's nominal DRAM bandwidth: device_report's figure, else bus
    width x memory clock x 2 (double data rate); (None, "") when it holds neither. results_md.py
    uses the same rule."""
    def get(key):
        v = device.get(key) if isinstance(device, dict) else None
        return v if schema.is_num(v) and v > 0 else None
    if get("nominal_dram_gb_per_s"):
        return get("nominal_dram_gb_per_s"), "device.nominal_dram_gb_per_s"
    bus, clk = get("memory_bus_width_bits"), get("memory_clock_mhz")
    if bus and clk:
        return bus * clk * 2 / 8 / 1e3, f"{bus:g}-bit bus x {clk:g} MHz x 2"
    return None, ""


class Ceiling:
    """A ceiling in the metric's own unit; kind: measured, nominal or ratio."""

    def __init__(self, kind, source, value, text):
        self.kind, self.source, self.value, self.text = kind, source, value, text

    def short(self, unit=""):
        return "ratio" if self.kind == "ratio" else f"{self.source} {num(self.value)}{' ' + unit if unit else ''}"

    def as_dict(self):
        return {"kind": self.kind, "source": self.source, "value": self.value, "text": self.text}


class Card:
    """One side: the file, its device facts and metrics, its record and reference set."""

    def __init__(self, path, doc, use_records=True, ref_dir=None):
        self.path, self.doc, self.use_records = path, doc, use_records
        self.ref_dir = reference_dir() if ref_dir is None else ref_dir
        self.ref_self = False
        self.name = model_name(doc) or "an unnamed GPU"
        self.folder = gpu_model.folder(self.name) if model_name(doc) else ""
        self.metrics = doc.get("metrics") or {}
        self.notes = []
        self.reference, self.ref_path = self._reference()
        self.record, self.record_path = self._record() if use_records else (None, None)
        ref_dev = (self.reference or {}).get("device") or {}
        self.device = {**ref_dev, **(doc.get("device") or {})}  # a record's block is short

    def _same_run(self, path, other):
        if os.path.realpath(path) == os.path.realpath(self.path):
            return True
        mine, theirs = self.doc.get("device") or {}, other.get("device") or {}
        return (mine.get("uuid"), self.doc.get("commit"), self.doc.get("date")) == \
               (theirs.get("uuid"), other.get("commit"), other.get("date"))

    def _read(self, path, schemas, what):
        if not os.path.isfile(path):
            return None
        doc, reason = schema.load_json(path)
        problems = [] if reason else schema.check_doc(doc, schemas)
        if reason or problems:
            self.notes.append(f"{path}: {reason or schema.one_line(problems)}; {what} ignored")
            return None
        return doc

    def _reference(self):
        if not self.folder:
            return None, None
        path = os.path.join(self.ref_dir, self.folder, "summary.json")
        doc = self._read(path, schema.SUMMARY_SCHEMAS, "reference set")
        if doc is not None and self._same_run(path, doc):
            self.ref_self = True  # a file is never its own ceiling
            return None, path
        if doc is None or model_name(doc) != self.name:
            return None, path
        return doc, path

    def _record(self):
        uuid = (self.doc.get("device") or {}).get("uuid")
        if not isinstance(uuid, str) or not uuid:
            return None, None
        path = os.path.join(ceilings_dir(), uuid + ".json")
        doc = self._read(path, schema.CEILINGS_SCHEMAS, "record")
        if doc is None or (doc.get("device") or {}).get("uuid") != uuid or self._same_run(path, doc):
            return None, path
        return doc, path

    def facts(self, key):
        """A number of the device block (the reference set's where the file's lacks it)."""
        v = self.device.get(key)
        return v if schema.is_num(v) else None

    def metric(self, key, fallback=False):
        v = self.metrics.get(key)
        if not schema.is_num(v) and fallback and self.reference:
            v = self.reference["metrics"].get(key)
        return v if schema.is_num(v) else None

    # ---- the rule per key --------------------------------------------------------------------

    def ceiling(self, key):
        """(measured Ceiling or None, nominal Ceiling or None, reason when neither)."""
        rule = rule_of(key)
        if rule is None:
            return None, None, reason_of(key)
        measured_key, nominal_kind = rule
        if nominal_kind == "ratio":
            return None, Ceiling("ratio", "ratio", 1.0, "a ratio: the models predict it equal on every card"), ""
        measured = None
        for src, doc, path in (("record", self.record, self.record_path),
                               ("reference", self.reference, self.ref_path)):
            v = (doc or {}).get("metrics", {}).get(measured_key) if measured_key else None
            if doc and schema.is_num(v) and v > 0:
                when = doc.get("date") if src == "record" else f"commit {str(doc.get('commit'))[:12]}"
                measured = Ceiling("measured", src, v, f"{measured_key} of {path} ({when})")
                break
        nominal, why = self.nominal(key, nominal_kind)
        if measured or nominal:
            return measured, nominal, ""
        where = []
        if measured_key and self.use_records:
            where.append("no ceilings record" if not self.record else f"its record has no {measured_key}")
        if measured_key:
            where.append("its reference set is this file itself" if self.ref_self else
                         "no reference set" if not self.reference else
                         f"its reference set has no {measured_key}")
        return None, None, f"no ceiling on {self.name}: " + ", ".join(where + [why])

    def nominal(self, key, kind):
        """(Ceiling, "") or (None, why there is no nominal figure)."""
        if kind == "dram":
            gbps, how = nominal_dram(self.device)
            if not gbps:
                return None, ("no nominal DRAM figure (the device block has neither "
                              "nominal_dram_gb_per_s nor memory_bus_width_bits and memory_clock_mhz)")
            return Ceiling("nominal", "nominal", gbps / 1e3, f"nominal DRAM {num(gbps / 1e3)} TB/s ({how})"), ""
        if kind == "l2":
            return None, "the L2 has no nominal figure"
        if kind == "per_clk":
            cc = self.device.get("compute_capability")
            try:
                major = int(str(cc).split(".")[0])
            except ValueError:
                major = 0
            if major < 7:
                return None, f"no nominal per-clock figure before compute capability 7.0 (device: {cc})"
            return Ceiling("nominal", "nominal", 128.0, "nominal 128 B/clk/SM (compute capability 7.0 and later)"), ""
        if kind == "peak":
            return Ceiling("nominal", "nominal", 1.0, "the peak model (a fraction of peak)"), ""
        if kind == "flop":
            return self.flop_peak(key)
        if kind in ("bus", "bus2"):
            bus = self.metric("bus.nominal.gbps", fallback=True)
            if not bus:
                return None, "no nominal PCIe figure (no bus.nominal.gbps in the summary or reference set)"
            k = 2 if kind == "bus2" else 1
            return Ceiling("nominal", "nominal", k * bus,
                           f"nominal PCIe {num(k * bus)} GB/s ({'2 x ' if k == 2 else ''}bus.nominal.gbps)"), ""
        if kind == "clock":
            mhz = self.facts("sm_clock_max_mhz")
            if not mhz:
                return None, "no nominal clock (the device block has no sm_clock_max_mhz)"
            return Ceiling("nominal", "nominal", mhz, f"the SM clock's maximum, {num(mhz)} MHz (device.sm_clock_max_mhz)"), ""
        if kind == "l2_bytes":
            size = self.facts("l2_bytes")
            if not size:
                return None, "no L2 size (the device block has no l2_bytes)"
            return Ceiling("nominal", "nominal", size, f"the L2 size, {size / 1048576:g} MiB (device.l2_bytes)"), ""
        return None, "no nominal figure"

    def flop_peak(self, key):
        """The peak model at the metric's clock, from the summary's rate / fraction_of_peak."""
        if key.startswith("fma.f32."):
            rate, frac = self.metric("fma.f32.tflops"), self.metric("fma.f32.fraction_of_peak")
            if not (rate and frac):
                return None, "no FP32 peak (the summary lacks fma.f32.tflops or fma.f32.fraction_of_peak)"
            return Ceiling("nominal", "nominal", rate / frac,
                           f"the FP32 FMA peak model, {num(rate / frac)} TFLOP/s (fma.f32.tflops / fraction_of_peak)"), ""
        kind = next(t for t in key.split(".") if t in TYPES)
        base = f"tensor.{kind}"
        rate, frac = self.metric(base + ".tflops", True), self.metric(base + ".fraction_of_peak", True)
        base_clk = self.metric(base + ".clock_mhz", True)
        if not (rate and frac and base_clk):
            return None, (f"no {kind} tensor peak (the summary and reference set lack {base}.tflops, "
                          ".fraction_of_peak or .clock_mhz)")
        clk, clk_key = base_clk, base + ".clock_mhz"
        stem = key.rsplit(".", 1)[0]
        while stem:
            found = [k for k in (stem + ".clock_mhz", stem + ".kernel_clock_mhz") if self.metric(k)]
            if found:
                clk, clk_key = self.metric(found[0]), found[0]
                break
            stem = stem.rpartition(".")[0]
        sparse = 2 if ".sparse." in key else 1
        peak = sparse * rate / frac / base_clk * clk
        return Ceiling("nominal", "nominal", peak,
                       f"the {kind} tensor peak model at {num(clk)} MHz ({clk_key}), {num(peak)} TFLOP/s"
                       + (" (2:4 sparse: 2 x dense)" if sparse == 2 else "")), ""


def rule_of(key):
    """(the key of the measured ceiling or None, the kind of nominal figure), or None: no ceiling."""
    op = {"read": "read", "write": "write", "copy": "copy", "memcpy": "copy", "memset": "write",
          "load": "read", "store": "write"}
    m = re.fullmatch(r"(?:dram\.(read|write|copy|memcpy|memset)|tma\.(load|store|copy))\.tbps", key)
    if m:
        return f"dram.{op[m[1] or m[2]]}.tbps", "dram"
    if key == "tma.multicast.dram_tbps":
        return "dram.read.tbps", "dram"
    if re.fullmatch(r"ceilings\.copy(_covering)?\.tbps", key):  # examples/teach_ceilings
        return "dram.copy.tbps", "dram"
    m = re.fullmatch(r"(?:cache\.)?l2\.(read|write|copy)(?:\.(?:all_sms|near_home|far_home))?\.tbps", key)
    if m:
        return f"l2.{m[1]}.tbps", "l2"
    m = re.fullmatch(r"(?:cache\.)?(l1|smem)\.(read|write)\.bytes_per_clk_sm", key)
    if m:
        return f"{m[1]}.{m[2]}.bytes_per_clk_sm", "per_clk"
    if key.endswith("fraction_of_peak"):
        return (key if re.fullmatch(r"(fma\.f32|tensor\.\w+)\.fraction_of_peak", key) else None), "peak"
    if key == "fma.f32.tflops":
        return key, "flop"
    if key.endswith("tflops") and any(t in key.split(".") for t in TYPES):
        kind = next(t for t in key.split(".") if t in TYPES)
        return (None if ".sparse." in key else f"tensor.{kind}.tflops"), "flop"
    m = re.fullmatch(r"(?:pcie|copy|memcpy)\.(h2d|d2h)(?:\.pageable)?\.gbps", key)
    if m:
        return f"pcie.{m[1]}.gbps", "bus"
    if re.fullmatch(r"zerocopy\.read\.gbps|host\.repeated_read\.\w+\.gbps", key):
        return "pcie.h2d.gbps", "bus"  # the device reads host memory: data toward the device
    if key == "zerocopy.write.gbps":
        return "pcie.d2h.gbps", "bus"
    if key == "bus.nominal.gbps":
        return None, "bus"
    if re.fullmatch(r"copy\.bidir(?:\.pageable)?\.gbps", key):
        return None, "bus2"
    if key.startswith("clock.sm."):
        return "clock.sm.effective_mhz", "clock"
    if key.endswith("clock_mhz"):
        return None, "clock"
    if key == "cache.l2.capacity_bytes":
        return None, "l2_bytes"
    if RATIO.search(key):
        return None, "ratio"
    return None


def reason_of(key):
    """Why a key has no ceiling, in words."""
    if TIME.search(key):
        return "a latency or time: no model ceiling"
    if key.endswith("_w"):
        return "a power: no model ceiling"
    if re.search(r"(tbps|gbps|bytes_per_clk\w*)$", key):
        return "a rate with no ceiling in the models (neither measured nor nominal)"
    return "a count or setting: no ceiling"


def fraction(v, ceiling):
    return v / ceiling.value if ceiling and ceiling.value else None


def pick(a, b):
    """The ceilings both sides use: measured where both have one, else nominal (or ratio)."""
    (ma, na, ra), (mb, nb, rb) = a, b
    if ma and mb:
        return ma, mb, ""
    if na and nb:
        return na, nb, ""
    if not (ma or na) or not (mb or nb):
        return None, None, "; ".join(dict.fromkeys(r for r in (ra, rb) if r))
    side = "A" if (ma and not na) else "B"
    return None, None, (f"{side}'s ceiling is measured only and the other side's nominal only; "
                        "a fraction of one is not comparable with a fraction of the other")


def compare_key(card_a, card_b, key, threshold):
    """One metric of two cards of different models: a row (verdict, fractions, ceilings)."""
    va, vb = card_a.metrics[key], card_b.metrics[key]
    row = {"name": key, "a": va, "b": vb, "ratio": vb / va if va else None}
    ca, cb, reason = pick(card_a.ceiling(key), card_b.ceiling(key))
    if ca is None:
        return dict(row, verdict="not comparable across models", reason=reason, comparable=False)
    fa, fb = fraction(va, ca), fraction(vb, cb)
    predicted = cb.value / ca.value
    agree = (fb == fa == 0) or (fa != 0 and abs(fb / fa - 1) <= threshold)
    verdict = (f"as the models predict (x{predicted:.3f})" if agree else
               f"differs from the models ({fa:.3g} vs {fb:.3g} of ceiling)")
    return dict(row, fraction_a=fa, fraction_b=fb, ceiling_a=ca.as_dict(), ceiling_b=cb.as_dict(),
                predicted=predicted, agree=agree, verdict=verdict, comparable=True,
                short_a=ca.short(unit_of(key)), short_b=cb.short(unit_of(key)))


def compare_cards(card_a, card_b, threshold, keys=None):
    """Rows of compare_key for every metric in common (or `keys`), sorted by key."""
    keys = sorted(set(card_a.metrics) & set(card_b.metrics)) if keys is None else keys
    return [compare_key(card_a, card_b, k, threshold) for k in keys]


def sources_line(card):
    """Which ceilings a card has, in one line."""
    rec = (f"its record {card.record_path} ({card.record.get('date')})" if card.record else
           f"no record ({card.record_path})" if card.record_path else "no record")
    ref = (f"the reference set {card.ref_path} (commit {str(card.reference.get('commit'))[:12]})"
           if card.reference else f"its reference set {card.ref_path} is this file itself (never "
           "its own ceiling)" if card.ref_self else f"no reference set ({card.ref_path})")
    return f"{card.name}: " + (f"{rec}; " if card.use_records else "") + f"{ref}; else nominal figures"



def results_across_models(ia, ib, threshold, label_of):
    """Output lines for two results files of different models (ia, ib: compare.index of each):
    each measurement both hold as the fraction of its own card's ceiling that the library placed
    it against when it ran (its `ceiling` field), with the verdict as compare_cards gives it; the
    predicted factor is the ratio of the two ceilings. Measurements without a fraction on a side
    are listed as not comparable."""
    import json
    rows, lost = [], []
    for key in sorted(set(ia) & set(ib)):
        label = label_of({"name": key[0], "params": json.loads(key[1]), "occurrence": key[2] + 1})
        ca, cb = ia[key].get("ceiling") or {}, ib[key].get("ceiling") or {}
        fa, fb = ca.get("fraction"), cb.get("fraction")
        if not all(isinstance(x, (int, float)) and x > 0 for x in (fa, fb)):
            side = "A" if not (isinstance(fa, (int, float)) and fa > 0) else "B"
            lost.append(f"  {label}: no fraction of its card's ceiling in {side}")
            continue
        pa, pb = ca.get("ceiling_per_s"), cb.get("ceiling_per_s")
        factor = pb / pa if isinstance(pa, (int, float)) and isinstance(pb, (int, float)) and pa else None
        agree = abs(fb / fa - 1) <= threshold
        kinds = "" if ca.get("source") == cb.get("source") else \
            f" (ceilings of two kinds: {ca.get('source')} in A, {cb.get('source')} in B)"
        verdict = (f"as the models predict (x{factor:.3f})" if factor else "as the models predict") \
            if agree else f"differs from the models ({num(fa)} vs {num(fb)} of ceiling)"
        rows.append((label, ca.get("key", ""), num(fa), num(fb), verdict + kinds, agree))
    out = ["A and B are different GPU models: each measurement is compared as the fraction of its "
           "own card's ceiling it was placed against when it ran.", ""]
    width = max([len(r[0]) for r in rows] + [11])
    out.append(f"{'measurement':<{width}}  {'ceiling':<18}  {'A of ceil':>9}  {'B of ceil':>9}  verdict")
    out += [f"{r[0]:<{width}}  {r[1]:<18}  {r[2]:>9}  {r[3]:>9}  {r[4]}" for r in rows]
    if lost:
        out += ["", f"not comparable across models: {len(lost)}"] + lost
    agree = sum(r[5] for r in rows)
    out += ["", f"verdict: across models: {len(rows)} compared: {agree} as the models predict, "
            f"{len(rows) - agree} differ from the models; {len(lost)} not comparable; "
            f"{len(set(ia) - set(ib))} only in A, {len(set(ib) - set(ia))} only in B "
            f"(|fraction B / fraction A - 1| > {threshold:g} differs)"]
    return out
