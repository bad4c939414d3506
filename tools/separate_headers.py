#!/usr/bin/env python3
"""The header / impl split of the host layers (include/cuprobe/core/linkage.cuh).

    python3 tools/separate_headers.py --check            # what a header still defines that
                                                         # belongs in its impl/ part; exit 1 if any
    python3 tools/separate_headers.py --apply HEADER...  # move those definitions (paths below
                                                         # include/, e.g. cuprobe/core/json.cuh)

A definition moves when it is a non-template host function of more than a line (MIN_BODY
characters) in a header of core, model, measure, report, calibrate, multi or testing/child.cuh:
not constexpr, a friend, a device function, a lambda, a deduced return type, a static function at
namespace scope, nor inside #if. It leaves a CUPROBE_DECL declaration where it was (its doc
comment with it) and goes, unchanged but for its qualified name and without default arguments,
to impl/<header>, which the header includes at its end where CUPROBE_HEADER_BODIES (header-only,
the host pass). A member whose return type names a type of its class is written with a trailing
return type.
--apply then lists the new impl/ part in cuprobe/implementation.cuh. The reading is textual (no
C++ parser): it knows the forms cuprobe's headers use, and host.separate_headers runs --check.
"""
import os, re, sys

MIN_BODY = int(os.environ.get("MIN_BODY", "70"))  # shorter bodies stay inline (one-liners)


def block_end(src, i):
    n, j, lvl = len(src), i, 0
    while j < n:
        ch = src[j]
        if src.startswith("//", j):
            j = src.find("\n", j)
            j = n if j < 0 else j
            continue
        if src.startswith("/*", j):
            j = src.find("*/", j) + 2
            continue
        if ch in "\"'":
            if ch == '"' and j > 0 and src[j - 1] == "R":
                m = re.match(r'"([^(]*)\(', src[j:])
                end = src.find(")" + m.group(1) + '"', j)
                j = end + len(m.group(1)) + 2
                continue
            q = ch
            j += 1
            while j < n and src[j] != q:
                j += 2 if src[j] == "\\" else 1
            j += 1
            continue
        if ch == "{":
            lvl += 1
        elif ch == "}":
            lvl -= 1
            if lvl == 0:
                return j
        j += 1
    raise ValueError("unbalanced")


def blank_comments(s):
    """s with comments and string contents replaced by spaces (same length)."""
    out, i, n = list(s), 0, len(s)
    while i < n:
        if s.startswith("//", i):
            j = s.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if s.startswith("/*", i):
            j = s.find("*/", i) + 2
            for k in range(i, j):
                out[k] = " " if s[k] != "\n" else "\n"
            i = j
            continue
        if s[i] in "\"'":
            q = s[i]
            j = i + 1
            while j < n and s[j] != q:
                j += 2 if s[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
            continue
        i += 1
    return "".join(out)


def head_start(b):
    """Start of the declaration that ends b (comments blanked): after the last ';', '{' or '}' at
    paren level 0, a '}' of an initializer (followed by ',' ')' or '{') skipped; also after
    'public:' / 'private:' / 'protected:'."""
    k, lv = len(b) - 1, 0
    while k >= 0:
        ch = b[k]
        if ch in ")]":
            lv += 1
        elif ch in "([":
            lv -= 1
        elif lv == 0 and ch in ";{":
            break
        elif lv == 0 and ch == "}":
            if not b[k + 1:].lstrip().startswith((",", ")", "{")):
                break
            d = 1
            k -= 1
            while k >= 0 and d:
                d += {"}": 1, "{": -1}.get(b[k], 0)
                k -= 1
            continue
        elif lv == 0 and ch == ":" and re.search(r"\b(public|private|protected)\s*$", b[:k]):
            break
        k -= 1
    return k + 1


def strip_templates(h):
    while True:
        m = re.search(r"template\s*<", h)
        if not m:
            return h
        q, lv = m.end(), 1
        while q < len(h) and lv:
            lv += {"<": 1, ">": -1}.get(h[q], 0)
            q += 1
        h = h[:m.start()] + h[q:]


def split_top(s, sep=","):
    parts, lv, cur = [], 0, ""
    for ch in s:
        if ch in "([{<":
            lv += 1
        elif ch in ")]}>":
            lv -= 1
        if ch == sep and lv == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def drop_defaults(params):
    if not params.strip():
        return params
    out = []
    for p in split_top(params):
        lv, cut = 0, None
        for q, ch in enumerate(p):
            if ch in "([{<":
                lv += 1
            elif ch in ")]}>":
                lv -= 1
            elif ch == "=" and lv == 0 and p[q + 1:q + 2] != "=" and p[q - 1:q] not in "!<>=":
                cut = q
                break
        out.append(p[:cut].rstrip() if cut is not None else p)
    return ",".join(out)


CLASS_RE = re.compile(r"(?:^|\s)(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(\w+)(\s+final)?\s*(:[^;{]*)?$", re.S)


def convert(path_rel, root):
    src = open(os.path.join(root, path_rel)).read()
    b_all = blank_comments(src)
    out, impl = [], []          # header text pieces; impl definitions (namespace path, text)
    scopes = []                 # (kind, name, is_template, nested_types)
    i, n, moved = 0, len(src), 0
    last = 0
    def flush_to(k):
        nonlocal last
        out.append(src[last:k])
        last = k
    while i < n:
        c = b_all[i]
        if c == "#" and b_all[b_all.rfind("\n", 0, i) + 1:i].strip() == "":
            j = i
            while True:
                k = b_all.find("\n", j)
                k = n if k < 0 else k
                if b_all[k - 1:k] == "\\":
                    j = k + 1
                    continue
                break
            i = k
            continue
        if c == "}":
            if scopes:
                scopes.pop()
            i += 1
            continue
        if c != "{":
            i += 1
            continue
        hs = head_start(b_all[:i])
        mpp = list(re.finditer(r"^[ \t]*#[^\n]*\n", b_all[hs:i], re.M))
        if mpp:  # a preprocessor line is a boundary too
            hs += mpp[-1].end()
        headb = b_all[hs:i]
        flat = " ".join(strip_templates(headb).split())
        m_ns = re.search(r"\bnamespace\s*([\w:]*)\s*$", flat)
        m_cls = CLASS_RE.search(flat)
        if m_ns:
            scopes.append(("namespace", m_ns.group(1), False, set()))
            i += 1
            continue
        if m_cls and "(" not in flat.split(m_cls.group(2))[0][-1:]:
            tmpl = "template" in headb or any(s[2] for s in scopes)
            nested = set()
            end = block_end(src, i)
            body_b = b_all[i:end]
            for mm in re.finditer(r"\busing\s+(\w+)\s*=|\b(?:struct|class|enum class|enum|union)\s+(\w+)", body_b):
                nested.add(mm.group(1) or mm.group(2))
            scopes.append(("class", m_cls.group(2), tmpl, nested))
            i += 1
            continue
        fn_like = re.search(r"\)\s*(const|noexcept|override|final|&|&&|\s)*$", headb) or \
            re.search(r"\)\s*(const\s*)?(noexcept\s*)?->\s*[\w:<>,\s*&]+$", headb)
        end = block_end(src, i)
        if not fn_like or "=" in re.sub(r"\(.*", "", flat).replace("operator", "").replace("==", "") \
                or re.search(r"\b(if|for|while|switch|catch|return|else|do)\b\s*(\(|$)", flat[:8]):
            # an initializer, an enum, a lambda or anything else: copy whole, unless it is a
            # class-like scope (handled above)
            if re.search(r"\benum\b", flat):
                i = end + 1
                continue
            i = end + 1
            continue
        in_tmpl = "template" in headb or any(s[2] for s in scopes)
        pp_depth = 0
        for mm in re.finditer(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", b_all[:i], re.M):
            pp_depth += 1 if mm.group(1).startswith("if") else -1
        if pp_depth > 0:
            in_tmpl = True  # inside #if: stays where it is
        keep = (in_tmpl or re.search(r"\b(constexpr|consteval|friend|__device__|__global__|__host__)\b", headb)
                or end + 1 - i < MIN_BODY)
        # the parameter list: the first '(' at level 0 after the name
        lv, popen = 0, None
        for q, ch in enumerate(headb):
            if ch == "(" and lv == 0 and popen is None:
                before = headb[:q]
                if re.search(r"operator\s*\($", before):  # operator()
                    continue
                popen = q
                break
            if ch == "<":
                lv += 1
            elif ch == ">" and headb[q - 1:q] != "-":
                lv -= 1
        if popen is None or headb[:popen].rstrip().endswith("]"):
            keep = True
        if not keep:
            before = headb[:popen]
            if re.match(r"\s*(static\s+)?auto\b", before.strip()) and "->" not in headb[popen:]:
                keep = True  # a deduced return type needs its body
            if any(s[0] == "namespace" and s[1] == "" for s in scopes):
                keep = True  # an unnamed namespace
            if not any(s[0] == "class" for s in scopes) and re.search(r"^\s*static\b", before):
                keep = True
        if keep:
            i = end + 1
            continue
        # the closing ')' of the parameter list
        lv, pclose = 0, None
        for q in range(popen, len(headb)):
            ch = headb[q]
            if ch == "(":
                lv += 1
            elif ch == ")":
                lv -= 1
                if lv == 0:
                    pclose = q
                    break
        head = src[hs:i]
        # comments before the declaration stay: split head into leading comment/space and decl
        lead_len = len(headb) - len(headb.lstrip())
        decl = head[lead_len:]
        declb = headb[lead_len:]
        po, pc = popen - lead_len, pclose - lead_len
        after = decl[pc + 1:]                    # qualifiers, maybe ': init list'
        afterb = declb[pc + 1:]
        m_init = re.search(r"(?<!:):(?!:)", afterb)
        init = ""
        if m_init:
            init = after[m_init.start():]
            after = after[:m_init.start()]
        spec_and_name = decl[:po]
        params = decl[po + 1:pc]
        # name: the last token before '(' (operator forms included)
        m_name = re.search(r"(operator\s*(\(\)|\[\]|[^\s\w(]+|\s+[\w:<>*&\s]+?)|~?\w+)\s*$", spec_and_name)
        name = m_name.group(1)
        spec = spec_and_name[:m_name.start()]
        classes = [s for s in scopes if s[0] == "class"]
        qual = "".join(s[1] + "::" for s in classes)
        if "::" in name or re.search(r"\w+::\s*$", spec):
            i = end + 1
            continue  # already out of class: leave it
        # declaration in place
        dspec = re.sub(r"^\s*inline\s+", "", spec)
        ma = re.match(r"\s*((?:\[\[[^\]]*\]\]\s*)*)", dspec)  # attributes come first
        out_decl = ma.group(1) + "CUPROBE_DECL " + dspec[ma.end():] + name + "(" + params + ")" + \
            after.rstrip() + ";"
        # definition
        ret = re.sub(r"\b(inline|static|virtual|explicit|CUPROBE_DECL)\b\s*", "", spec)
        ret = re.sub(r"\[\[[^\]]*\]\]\s*", "", ret).strip()
        quals = re.sub(r"\b(override|final)\b", "", after).strip()
        nested = set().union(*[s[3] for s in classes]) if classes else set()
        uses_nested = any(re.search(r"\b%s\b" % re.escape(t), ret) for t in nested)
        pdef = drop_defaults(params)
        if ret and classes and uses_nested:
            sig = f"auto {qual}{name}({pdef}){(' ' + quals) if quals else ''} -> {ret}"
        else:
            sig = f"{ret + ' ' if ret else ''}{qual}{name}({pdef}){(' ' + quals) if quals else ''}"
        body = src[i:end + 1]
        doc = ""
        md = re.match(r"\{[ \t]*(///<[^\n]*)\n", body)
        if md:  # a member's trailing doc comment stays with its declaration
            doc = "  " + md.group(1)
            body = "{\n" + body[md.end():]
        out_decl += doc
        definition = "CUPROBE_DECL " + sig + (" " + init.strip() if init.strip() else "") + " " + body
        ns = [s[1] for s in scopes if s[0] == "namespace"]
        impl.append(("::".join(ns), definition))
        flush_to(hs + lead_len)
        out.append(out_decl)
        last = end + 1
        # swallow a ';' right after an in-class body ('{ ... };' is rare) - leave it
        moved += 1
        i = end + 1
    flush_to(n)
    return "".join(out), impl, moved


def write_impl(root, rel, impl):
    """Writes impl/<header> with `impl`'s definitions, or appends them to the part already there."""
    d, f = os.path.split(rel)
    irel = os.path.join(d, "impl", f)
    path = os.path.join(root, irel)
    if os.path.exists(path):
        text = [open(path).read().rstrip("\n") + "\n"]
    else:
        text = [f"// {irel}: the definitions of {rel}'s larger host functions. Not a header of its\n"
                f"// own: {f} includes it at its end in the header-only mode, and cuprobe/implementation.cuh\n"
                "// after every header in the separate compilation (core/linkage.cuh).\n"
                "#pragma once\n"]
    cur = None
    for ns, definition in impl:
        if ns != cur:
            if cur:
                text.append(f"\n}}  // namespace {cur}\n")
            text.append(f"\nnamespace {ns} {{\n" if ns else "\n")
            cur = ns
        text.append("\n" + definition + "\n")
    if cur:
        text.append(f"\n}}  // namespace {cur}\n")
    os.makedirs(os.path.join(root, d, "impl"), exist_ok=True)
    open(path, "w").write("".join(text))
    return irel


LAYERS = ("core", "model", "measure", "report", "calibrate", "multi")
NOT_SPLIT = ("cuprobe/core/linkage.cuh", "cuprobe/testing/doctest.cuh")


def host_layer_headers(include):
    """The headers the split applies to, as paths below include/."""
    out = []
    for dp, _, fs in os.walk(os.path.join(include, "cuprobe")):
        for f in fs:
            rel = os.path.relpath(os.path.join(dp, f), include)
            parts = rel.split(os.sep)
            if not f.endswith(".cuh") or "impl" in parts or rel in NOT_SPLIT:
                continue
            if (len(parts) > 2 and parts[1] in LAYERS) or rel == "cuprobe/testing/child.cuh":
                out.append(rel)
    return sorted(out)


def apply(include, rel):
    hdr, impl, moved = convert(rel, include)
    if not moved:
        return 0
    had_part = os.path.exists(os.path.join(include, os.path.dirname(rel), "impl", os.path.basename(rel)))
    irel = write_impl(include, rel, impl)
    if had_part:  # the header includes its part already
        open(os.path.join(include, rel), "w").write(hdr)
        print(f"{rel}: {moved} definition(s) moved to {irel} (run clang-format on both)")
        return moved
    incs = list(re.finditer(r'^#include "cuprobe/[^\n]*$', hdr, re.M))
    k = incs[-1].end() if incs else hdr.index("#pragma once") + len("#pragma once")
    hdr = hdr[:k] + '\n#include "cuprobe/core/linkage.cuh"' + hdr[k:]
    hdr = hdr.rstrip("\n") + f'\n\n#if CUPROBE_HEADER_BODIES\n#include "{irel}"\n#endif\n'
    open(os.path.join(include, rel), "w").write(hdr)
    umbrella = os.path.join(include, "cuprobe", "implementation.cuh")
    text = open(umbrella).read()
    if f'#include "{irel}"' not in text:
        open(umbrella, "w").write(text.rstrip("\n") + f'\n#include "{irel}"\n')
    print(f"{rel}: {moved} definition(s) moved to {irel} (run clang-format on both)")
    return moved


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--apply", nargs="+", metavar="HEADER")
    ap.add_argument("--include", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "include"))
    a = ap.parse_args()
    if a.apply:
        for rel in a.apply:
            apply(a.include, rel)
        return 0
    found = 0
    for rel in host_layer_headers(a.include):
        _, impl, moved = convert(rel, a.include)
        for _, definition in impl:
            found += 1
            print(f"separate_headers: include/{rel}: {definition.split('{')[0].strip()[:110]} belongs "
                  f"in impl/{os.path.basename(rel)}")
    print(f"separate_headers: {len(host_layer_headers(a.include))} headers, {found} definition(s) to move")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
