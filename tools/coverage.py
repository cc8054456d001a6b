#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""coverage.py: merges the per-configuration gcovr JSON files of `make coverage` and lists what
the tests do not reach, against the reasons written in docs/coverage.md.

    coverage.py [--doc docs/coverage.md] [--write-doc] OUTDIR CONFIG.json...

Each CONFIG.json is `gcovr --json` of one configuration's run (lib/ only, the exclusions of
tools/coverage.sh already applied). This script
  - writes OUTDIR/tracefiles/<name>.json, which tools/coverage.sh gives to
    `gcovr --add-tracefile` for the figures: the same data without the function records (gcovr
    5.2 cannot merge a function that sits on other lines in other configurations: the fixed- and
    float-point versions of an inline function in mbp_scalar.h), and with the branches of a line
    that has a different number of branches in different configurations kept apart (gcovr matches
    branches by their number on the line; a line that has, say, 2 branches in some configurations
    and 10 in others, an always-inline function with more call sites in one configuration, is
    given 12: each configuration's branches padded with never-taken placeholders for the others',
    which add nothing to the counts);
  - merges them as gcovr does (execution counts added, branches matched by their number on the
    line, a line is code when it is code in any configuration);
  - writes OUTDIR/uncovered.txt (one line per source line with a line not run or a branch not
    taken) and OUTDIR/uncovered.md (the table of docs/coverage.md, with the reasons found there
    and "TODO" for new entries); with --write-doc it puts that table into the document;
  - prints the entries that the document does not explain, and the totals it computed (which
    must equal gcovr's).
An entry is matched to the document by file, function and the source text of the line, not by
line number, so that edits elsewhere in lib/ do not orphan the reasons. A row whose code is `*`
explains every line of its function (or, with function `*` too, of its file); such rows are kept
at the top of the table.
"""
import json
import os
import re
import sys

BEGIN = "<!-- uncovered:begin -->"
END = "<!-- uncovered:end -->"
ASSERT_RE = re.compile(r"\bMBP__(ASSERT|CHECK_WORLD)\(")
FUNC_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_ \*]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def load_source(path, cache):
    if path not in cache:
        try:
            with open(path, encoding="utf-8") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    return cache[path]


def function_of(src, line):
    """The function a line is in: the last definition header at column 0 above it (or the line
    itself, when it is a header: a function that never runs has its header line not run)."""
    here = src[line - 1] if line - 1 < len(src) else ""
    mt = FUNC_RE.match(here)
    if mt and not here.startswith(("typedef", "struct", "static const", "#")) and \
            any(src[m].startswith("{") for m in range(line, min(line + 4, len(src)))):
        return mt.group(1)
    for n in range(line - 1, -1, -1):
        text = src[n] if n < len(src) else ""
        if text.startswith("{") and n > 0:
            # the header is the line (or lines) before the brace
            for m in range(n - 1, max(n - 4, -1), -1):
                mt = FUNC_RE.match(src[m])
                if mt and not src[m].startswith(("typedef", "struct", "static const", "#")):
                    return mt.group(1)
            return "?"
    return "-"


def norm(code):
    return " ".join(code.strip().split())


def merge(files):
    """{file: {line: {"count", "noncode", "branches": {i: count}}}} merged over configs."""
    out = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for fc in data["files"]:
            lines = out.setdefault(fc["file"], {})
            for ln in fc["lines"]:
                n = ln["line_number"]
                e = lines.get(n)
                if e is None:
                    e = lines[n] = {"count": 0, "noncode": True, "excluded": False,
                                    "branches": {}}
                e["count"] += ln["count"]
                e["noncode"] = e["noncode"] and ln["gcovr/noncode"]
                e["excluded"] = e["excluded"] or ln["gcovr/excluded"]
                for i, b in enumerate(ln["branches"]):
                    e["branches"][i] = e["branches"].get(i, 0) + b["count"]
    return out


def read_doc(doc):
    """Reasons by (file, function, code) from the table between the markers, and the rows whose
    function or code is `*` (they explain every line of that function or file), in order."""
    reasons = {}
    wild = []
    try:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return reasons, wild, None
    if BEGIN not in text or END not in text:
        return reasons, wild, text
    table = text.split(BEGIN, 1)[1].split(END, 1)[0]
    for row in table.split("\n"):
        # cells split at the pipes not escaped as \| (the code column escapes its own)
        cells = [c.strip().replace("\\|", "|")
                 for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
        if len(cells) < 6 or not cells[0].startswith("`lib/"):
            continue
        key = (cells[0].strip("`"), cells[2].strip("`"), norm(cells[3].strip("`")))
        if key[2] == "*":
            wild.append((key, row.strip()))
        reasons[key] = cells[5]
    return reasons, wild, text


def reason_for(reasons, fname, fn, code):
    for key in ((fname, fn, code), (fname, fn, "*"), (fname, "*", "*")):
        if key in reasons:
            return reasons[key]
    return None


def main(argv):
    doc = "docs/coverage.md"
    write_doc = False
    args = []
    it = iter(argv)
    for a in it:
        if a == "--doc":
            doc = next(it)
        elif a == "--write-doc":
            write_doc = True
        else:
            args.append(a)
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    outdir, inputs = args[0], args[1:]
    tdir = os.path.join(outdir, "tracefiles")
    os.makedirs(tdir, exist_ok=True)
    datas = []
    for path in inputs:
        with open(path, encoding="utf-8") as f:
            datas.append(json.load(f))
    # The distinct branch counts of each line over the configs: where there are several, each
    # gets its own range of branch numbers.
    shapes = {}
    for data in datas:
        for fc in data["files"]:
            for ln in fc["lines"]:
                if ln["branches"]:
                    key = (fc["file"], ln["line_number"])
                    shapes.setdefault(key, set()).add(len(ln["branches"]))
    mixed = sorted("%s:%d" % k for k, v in shapes.items() if len(v) > 1)
    placeholder = {"count": 0, "fallthrough": False, "throw": False}
    traces = []
    for path, data in zip(inputs, datas):
        for fc in data["files"]:
            fc["functions"] = []
            for ln in fc["lines"]:
                sizes = sorted(shapes.get((fc["file"], ln["line_number"]), ()))
                if len(sizes) > 1 and ln["branches"]:
                    n = len(ln["branches"])
                    before = sum(x for x in sizes if x < n)
                    after = sum(x for x in sizes if x > n)
                    ln["branches"] = [dict(placeholder) for _ in range(before)] + \
                        ln["branches"] + [dict(placeholder) for _ in range(after)]
        trace = os.path.join(tdir, os.path.basename(path))
        with open(trace, "w", encoding="utf-8") as f:
            json.dump(data, f)
        traces.append(trace)

    cov = merge(traces)
    reasons, wild, doc_text = read_doc(doc)
    cache = {}
    rows, plain, undocumented = [], [], []
    lt = lc = bt = bc = 0
    asserts = 0
    for fname in sorted(cov):
        src = load_source(fname, cache)
        for n in sorted(cov[fname]):
            e = cov[fname][n]
            if e["noncode"]:
                continue
            if n - 1 < len(src) and ASSERT_RE.search(src[n - 1]):
                asserts += 1
            lt += 1
            lc += 1 if e["count"] > 0 else 0
            nb = len(e["branches"])
            taken = sum(1 for c in e["branches"].values() if c > 0)
            bt += nb
            bc += taken
            if e["count"] > 0 and taken == nb:
                continue
            code = norm(src[n - 1]) if n - 1 < len(src) else "?"
            fn = function_of(src, n)
            what = ("line not run" if e["count"] == 0 else "") + \
                   ("" if taken == nb else ("%s%d of %d branches not taken" %
                                            (", " if e["count"] == 0 else "", nb - taken, nb)))
            reason = reason_for(reasons, fname, fn, code)
            if reason is None:
                undocumented.append("%s:%d (%s) `%s`: %s" % (fname, n, fn, code, what))
            plain.append("%s:%d: %s: %s: %s" % (fname, n, fn, what, code))
            rows.append("| `%s` | %d | `%s` | `%s` | %s | %s |" %
                        (fname, n, fn, code.replace("|", "\\|"), what,
                         reason if reason is not None else "TODO: why"))

    with open(os.path.join(outdir, "uncovered.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(plain) + ("\n" if plain else ""))
    header = ["| file | line | function | code | not reached | why |",
              "|---|---:|---|---|---|---|"]
    table = "\n".join(header + [row for _, row in wild] + rows) + "\n"
    with open(os.path.join(outdir, "uncovered.md"), "w", encoding="utf-8") as f:
        f.write(table)
    if write_doc:
        if doc_text is None or BEGIN not in doc_text or END not in doc_text:
            sys.stderr.write("coverage: %s has no %s ... %s markers\n" % (doc, BEGIN, END))
            return 1
        head, rest = doc_text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        with open(doc, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + "\n" + table + END + tail)
        print("coverage: wrote the table of %s (%d entries)" % (doc, len(rows)))

    if mixed:
        print("coverage: %d lines have a different number of branches in different configurations,"
              " counted apart: %s" % (len(mixed), " ".join(mixed)))
    for u in undocumented[:40]:
        print("coverage: not explained in %s: %s" % (doc, u))
    if len(undocumented) > 40:
        print("coverage: ... and %d more not explained (all in %s)" %
              (len(undocumented) - 40, os.path.join(outdir, "uncovered.md")))
    print("coverage: %d lines with something not reached (%s), %d not explained in %s" %
          (len(rows), os.path.join(outdir, "uncovered.txt"), len(undocumented), doc))
    print("coverage: the branches of %d assertion lines (MBP__ASSERT, MBP__CHECK_WORLD) are not "
          "counted (%s)" % (asserts, doc))
    print("coverage: merged here: lines %d of %d, branches %d of %d" % (lc, lt, bc, bt))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
