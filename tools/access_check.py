#!/usr/bin/env python3
"""Compare the sector model's counts with Nsight Compute's (tools/ncu_access.sh).

  access_check.py EXPECTED.csv NCU.csv [--markdown OUT.md] [--summary OUT.json]

EXPECTED.csv: what `access_patterns --ncu-set` wrote, one row per access_kernel launch in launch
order (launch, pattern, op, width, ..., sectors_per_request, lines_per_request, requests).
NCU.csv: ncu --csv --page raw for those launches (a header row, a units row, one row per
kernel; numbers may carry thousands separators). Row i of each is launch i; the element width
in the kernel's name is checked against the pattern's.

A launch matches when the load requests equal the model's requests and the load sectors per
request equal the model's sectors per request (exactly: both are counts), and, for a copy, the
store requests and sectors per request likewise. L2 sectors read per request and DRAM bytes
are tabulated beside them, not compared (L2 sectors of a load can be fewer when requests hit in
flight; DRAM bytes depend on the working set). --summary writes a cuprobe.summary/1 file with
access.model_matches_ncu = 1 when every launch matches, else 0 (merged into an existing
summary file at that path). Exit status 0 when all match, 1 otherwise or on bad input.
"""
import argparse
import csv
import datetime
import json
import os
import sys

WIDTH_OF_TYPE = {"unsigned char": 1, "unsigned short": 2, "unsigned int": 4,
                 "unsigned long": 8, "unsigned long long": 8, "uint4": 16}


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def kernel_width(name):
    """The element width named by 'void access_kernel<unsigned int, 0, 4, cg, cg>(...)'."""
    if "<" not in name:
        return None
    first = name.split("<", 1)[1].split(",", 1)[0].strip()
    return WIDTH_OF_TYPE.get(first)


def read_ncu(path):
    rows = list(csv.reader(open(path, newline="")))
    if len(rows) < 2:
        raise ValueError(f"{path}: no ncu rows")
    head = rows[0]
    body = [r for r in rows[1:] if r and number(r[0]) is not None]  # skip the units row
    out = []
    for r in body:
        d = dict(zip(head, r))
        out.append(d)
    out.sort(key=lambda d: number(d.get("ID")))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("expected")
    p.add_argument("ncu")
    p.add_argument("--markdown")
    p.add_argument("--summary")
    a = p.parse_args(argv)
    try:
        expected = list(csv.DictReader(open(a.expected, newline="")))
        measured = read_ncu(a.ncu)
    except (OSError, ValueError, csv.Error) as e:
        print(f"access_check: {e}", file=sys.stderr)
        return 1
    lines = ["| launch | pattern | op | model sectors/req | ld sectors/req | st sectors/req | "
             "requests (model / ld) | L2 sectors/req | DRAM bytes | match |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    ok = len(expected) == len(measured) and len(expected) > 0
    if len(expected) != len(measured):
        print(f"access_check: {len(expected)} launches expected, ncu reports {len(measured)}",
              file=sys.stderr)
    bad = 0
    for e, m in zip(expected, measured):
        sectors = int(e["sectors_per_request"])
        requests = int(e["requests"])
        ld_req = number(m.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"))
        ld_sec = number(m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"))
        st_req = number(m.get("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"))
        st_sec = number(m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"))
        l2 = number(m.get("lts__t_sectors_srcunit_tex_op_read.sum"))
        dram = number(m.get("dram__bytes_read.sum"))
        per = (lambda s, r: s / r if s is not None and r else None)
        ld_per, st_per = per(ld_sec, ld_req), per(st_sec, st_req)
        match = ld_req == requests and ld_per == sectors
        if e["op"] == "copy":
            match = match and st_req == requests and st_per == sectors
        width = kernel_width(m.get("Kernel Name", ""))
        if width is not None and width != int(e["width"]):
            match = False
        bad += not match
        fmt = (lambda v: "-" if v is None else f"{v:g}")
        lines.append(f"| {e['launch']} | {e['pattern']} | {e['op']} | {sectors} | {fmt(ld_per)} | "
                     f"{fmt(st_per) if e['op'] == 'copy' else '-'} | {requests} / {fmt(ld_req)} | "
                     f"{fmt(per(l2, ld_req))} | {fmt(dram)} | {'yes' if match else 'NO'} |")
    ok = ok and bad == 0
    table = "\n".join(lines) + "\n"
    print(table)
    print(f"access_check: {len(expected) - bad} of {len(expected)} launches match the model; "
          f"access.model_matches_ncu = {int(ok)}")
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("# Sector model against ncu\n\n" + table)
    if a.summary:
        doc = {}
        if os.path.exists(a.summary):
            try:
                doc = json.load(open(a.summary))
            except (OSError, ValueError):
                doc = {}
        if doc.get("schema") != "cuprobe.summary/1":
            doc = {"schema": "cuprobe.summary/1", "device": None, "commit": None,
                   "command": "tools/access_check.py " + " ".join(sys.argv[1:]),
                   "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "metrics": {}}
        doc.setdefault("metrics", {})["access.model_matches_ncu"] = int(ok)
        with open(a.summary, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
