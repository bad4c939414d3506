#!/usr/bin/env python3
"""The reference-set folder of a GPU model: docs/results/<folder>/, by cuprobe's rule.

    tools/gpu_model.py folder "NVIDIA H100 80GB HBM3"        -> h100-80gb-hbm3
    tools/gpu_model.py summary-folder PATH/summary.json      -> the folder of its device

The rule is cuprobe::gpu_model_folder's (include/cuprobe/measure/ceilings.cuh), which the
library uses to find a card's reference set: drop one leading "NVIDIA ", lowercase the ASCII
letters A-Z, and turn every space into '-': "NVIDIA H200" -> "h200". This is the only copy of
the rule on the Python side (scripts/gpu-check.sh and scripts/reference-set.sh call it);
tests/host/tools_check.py checks it on the very pairs tests/host/ceilings.cu checks the C++
rule with (it reads them out of that file), and on the cards the project runs on.

A summary file is a cuprobe.summary/1 file (device_report --summary, or merged by
tools/merge_summaries.py): the device's name is its "device"."name".

Exit status: 0 printed; 2 a bad command line, or a summary file that cannot be read or names no
device (one sentence on stderr). Standard library only.
"""
import json
import sys

PREFIX = "NVIDIA "
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ ", "abcdefghijklmnopqrstuvwxyz-")


def folder(name):
    """The reference-set folder name of the GPU model called `name` (cuprobe::gpu_model_folder)."""
    if name.startswith(PREFIX):
        name = name[len(PREFIX):]
    return name.translate(_LOWER)  # ASCII only, as the C++ rule: no locale, no other letters


class Refused(Exception):
    """One sentence for stderr; exit status 2."""


def summary_device_name(path):
    """The device name a cuprobe summary file records."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise Refused(f"{path}: cannot be read ({e.strerror or e})") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise Refused(f"{path}: is not a JSON file ({e})") from None
    dev = doc.get("device") if isinstance(doc, dict) else None
    name = dev.get("name") if isinstance(dev, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise Refused(f"{path}: names no device (a cuprobe summary file has device.name)")
    return name


def main(argv):
    usage = ("usage: gpu_model.py folder \"GPU NAME\"  |  gpu_model.py summary-folder "
             "PATH/summary.json")
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 3 or argv[1] not in ("folder", "summary-folder"):
        raise Refused(usage)
    name = argv[2] if argv[1] == "folder" else summary_device_name(argv[2])
    out = folder(name)
    if not out:
        raise Refused(f"the GPU name {name!r} gives an empty folder name")
    print(out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Refused as e:
        print(f"gpu_model.py: {e}", file=sys.stderr)
        sys.exit(2)
