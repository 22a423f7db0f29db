#!/usr/bin/env python3
"""Independent CPython oracle for the property tests in test/props (docs/properties.md).

Run by hand, never at test time:

    python3 test/props/oracles/cpython_oracle.py > test/props/oracles/cpython-cases.json

It does NOT import GuardKit. It transliterates the rules of docs/guardkit-logic.md (§4.1
`_is_valid_file_path`, §6.5 `_normalize_to_relative` / `_detect_tests_from_results`, §7.5
`_strip_criterion_prefix` / `_extract_keywords` / `_match_by_text`, §8.4 `_normalize_feedback_for_stall`
and `_is_feedback_stalled`) into Python, so that CPython itself supplies the semantics the TypeScript
model has to imitate: `str.strip`, `str.split`, `str.lower`, `str.isdigit`, `re` (`\\s`, `\\S`, `\\d`),
`hashlib.md5`, `pathlib`, and a real file system for `exists()`. The samples are drawn with a fixed
seed from realistic fragments (pytest output, worktree paths, checkbox prefixes) and awkward Unicode
(astral characters, combining marks, Python-only whitespace, U+FEFF which is not whitespace).

The committed JSON is what the tests read; the script is kept so the cases can be regenerated and
audited. Output is deterministic for a given CPython version (recorded in the JSON).
"""
import hashlib
import json
import os
import random
import re
import shutil
import sys
import unicodedata
from pathlib import Path

SEED = 20261122
rng = random.Random(SEED)

# ---------------------------------------------------------------------------------------------
# Character tables (docs/guardkit-logic.md §3.2, §3.3, §3.6, §7.5): exhaustive over every code point.

ALL = range(0x110000)


def ranges(pred):
    out, start = [], None
    for cp in ALL:
        ok = pred(cp)
        if ok and start is None:
            start = cp
        elif not ok and start is not None:
            out.append([start, cp - 1])
            start = None
    if start is not None:
        out.append([start, 0x10FFFF])
    return out


def is_surrogate(cp):
    return 0xD800 <= cp <= 0xDFFF


RE_S = re.compile(r"\s")
RE_D = re.compile(r"\d")

tables = {
    "isspace": ranges(lambda cp: chr(cp).isspace()),
    "re_s": ranges(lambda cp: RE_S.match(chr(cp)) is not None),
    "isdigit": ranges(lambda cp: chr(cp).isdigit()),
    "re_d": ranges(lambda cp: RE_D.match(chr(cp)) is not None),
    # Code points Unicode 14 (CPython 3.11) has not assigned: the TS runtime may know them.
    "unassigned": ranges(lambda cp: not is_surrogate(cp) and unicodedata.category(chr(cp)) == "Cn"),
    # chr(cp).lower() wherever it is not chr(cp) itself (surrogates excluded: not valid in UTF-16 text).
    "lower": {str(cp): chr(cp).lower() for cp in ALL if not is_surrogate(cp) and chr(cp).lower() != chr(cp)},
}

# ---------------------------------------------------------------------------------------------
# Fragments for samples.

ASTRAL = ["\U0001F600", "\U0001D518", "\U00010400", "\U00010428", "\U0001F9EA", "\U00020000"]
COMBINING = ["e\u0301", "a\u0308", "\u0301", "n\u0303", "\u0915\u094d\u0937"]
PY_ONLY_WS = ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u3000", "\u00a0", "\u2009", "\u2028"]
NOT_WS = ["\ufeff", "\u200b", "\u180e"]
CASE = ["\u0130", "\u03a3\u039f\u03a3", "\u00df", "\u01c5", "\u1e9e", "\u2126", "K", "\u212a", "\u0049\u0307"]
DIGITS = ["42", "7", "1.73", "0.12", "100", "\u0664\u0662", "\uff11\uff12", "\u00b2", "\u2460", "\u0966"]

NODE_IDS = [
    "tests/users/test_users.py::TestUserCreate::test_create_user",
    "tests/a/test_b.py::TestC::test_d[param-1]",
    "tests/test_x.py::test_y[a b]",
    "C:\\wt\\tests\\test_a.py::test_t",
    "tests/caf\u00e9/test_\U0001F600.py::test_\u00e9",
    "(tests/a.py::t)",
]
WORKTREES = [
    "/Users/rich/proj/.guardkit/worktrees/FEAT-BA28",
    "/home/ci/x/.guardkit/worktrees/FEAT-ZZ",
    "/Users/\u00e9l\u00e8ve/\U0001F600/.guardkit/worktrees/FEAT-E7B5",
    "C:\\Users\\x\\proj\\.guardkit\\worktrees\\FEAT-X",
]
WORDS = [
    "- Independent test verification failed:", "- Coverage threshold not met", "FAILED", "ERROR", "E  ",
    "AssertionError:", "assert", "line", "Line", "in", "passed", "failed", "error", "errors", "skipped",
    "warnings", "warning", "deselected", "xfailed", "====", "-", "\u2022", "Traceback (most recent call last):",
    'File "x.py",', "OperationalError", "sqlalchemy.exc.OperationalError", "Running:", "pytest", "-v",
    "Not all acceptance criteria met:", "AC one", "Config file exists", "Schema validated", "pipeline", "main",
    "Coverage:", "%", "s", "::", ".py", "/", "worktrees", "/worktrees/",
]


def fragment():
    kind = rng.random()
    if kind < 0.30:
        return rng.choice(WORDS)
    if kind < 0.40:
        return rng.choice(NODE_IDS)
    if kind < 0.48:
        return rng.choice(WORKTREES) + rng.choice(["/tests/users/test_users.py", "/", "", "/src/app.py:12"])
    if kind < 0.60:
        return rng.choice(DIGITS) + rng.choice(["", "%", "s", " passed", " failed", " errors", " warning"])
    if kind < 0.66:
        return rng.choice(["line ", "Line ", "in ", "in  "]) + rng.choice(DIGITS) + rng.choice(["", "s"])
    if kind < 0.74:
        return rng.choice(ASTRAL + COMBINING)
    if kind < 0.82:
        return rng.choice(CASE)
    if kind < 0.90:
        return rng.choice(PY_ONLY_WS + NOT_WS)
    return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(1, 4)))


def sample_text(max_parts=10):
    parts = [fragment() for _ in range(rng.randrange(0, max_parts))]
    seps = [" ", " ", " ", "\n", "\n  ", "", "\t"] + PY_ONLY_WS
    return "".join(p + rng.choice(seps) for p in parts)


# ---------------------------------------------------------------------------------------------
# docs/guardkit-logic.md §8.4 `_normalize_feedback_for_stall` and the signature (fixed; legacy hashes the text as sent).

STALL_PATTERNS = [
    (re.compile(r"\S+\.py::\S+"), "FILE::TEST"),
    (re.compile(r"line \d+"), "line N"),
    (re.compile(r"\d+(\.\d+)?%"), "N%"),
    (re.compile(r"in \d+\.\d+s"), "in Ns"),
    (re.compile(r"\d+ (passed|failed|error|errors|skipped|warnings?)"), r"N \1"),
    (re.compile(r"/\S+/worktrees/\S+/"), "/WORKTREE/"),
]


def normalize_feedback(text):
    for pattern, repl in STALL_PATTERNS:
        text = pattern.sub(repl, text)
    return text


def sig(text):
    return hashlib.md5(text.strip().lower().encode()).hexdigest()[:8]


stall_cases = []
for _ in range(400):
    fb = sample_text()
    norm = normalize_feedback(fb)
    stall_cases.append({"feedback": fb, "normalized": norm, "legacy": sig(fb), "fixed": sig(norm)})


def is_feedback_stalled(history, sig_, count, threshold, fixed):
    history.append((sig_, count))
    if len(history) < threshold:
        return False
    recent = history[-threshold:]
    if len({s for s, _ in recent}) != 1:
        return False
    if len({c for _, c in recent}) != 1:
        return False
    count0 = recent[0][1]
    if not fixed:
        return True
    if count0 == 0:
        return True
    ext = threshold + 2
    if len(history) >= ext:
        window = history[-ext:]
        if len({s for s, _ in window}) == 1 and len({c for _, c in window}) == 1:
            return True
    return False


stall_sequences = []
FEEDBACKS = ["- Coverage threshold not met", "- Not all acceptance criteria met:\n  \u2022 AC one",
             "FAILED tests/a.py::t1 - E\n==== 1 failed in 1.73s ====", "FAILED tests/a.py::t2 - E\n==== 2 failed in 0.50s ===="]
for _ in range(120):
    threshold = rng.randrange(1, 6)
    calls = [[rng.choice(FEEDBACKS), rng.choice([0, 0, 0, 1, 2])] for _ in range(rng.randrange(1, 12))]
    out = {}
    for name, fixed in (("legacy", False), ("fixed", True)):
        history = []
        results = [is_feedback_stalled(history, sig(normalize_feedback(f)) if fixed else sig(f), c, threshold, fixed) for f, c in calls]
        out[name] = results
    stall_sequences.append({"threshold": threshold, "calls": calls, **out})

# ---------------------------------------------------------------------------------------------
# docs/guardkit-logic.md §6.5 `_normalize_to_relative` and `_detect_tests_from_results`, on a real worktree directory.

BASE = "/tmp/gkr-cpython-oracle"
WORKTREE = Path(BASE) / "worktree" / "root"


def normalize_to_relative(fp):
    p = Path(fp)
    if p.is_absolute():
        try:
            return str(p.relative_to(WORKTREE))
        except ValueError:
            return fp
    return fp


def detect_tests_from_results(twr, fixed):
    found = []
    for key in ("files_created", "files_modified"):
        for fp in twr.get(key, []):
            p = normalize_to_relative(fp) if fixed else fp
            name = Path(p).name
            if (name.startswith("test_") and name.endswith(".py")) or name.endswith("_test.py"):
                if (WORKTREE / p).exists():
                    found.append(str(p))
    if not found:
        return None
    return "pytest " + " ".join(sorted(set(found))) + " -v --tb=short"


REL = ["tests/test_a.py", "tests/users/test_users.py", "tests/a/test_x.py", "tests/a-b/test_x.py", "src/foo_test.py",
       "tests/caf\u00e9/test_\u00e9.py", "tests/test_\U0001F600.py", "tests/test_\uff01.py", "tests/conftest.py", "src/app.py"]


def path_variant(rel):
    root = str(WORKTREE)
    forms = [rel, root + "/" + rel, "./" + rel, rel + "/", root + "/" + rel + "/", root + "//" + rel,
             root + "/../root/" + rel, "/other/" + rel, rel.replace("/", "\\"), "C:\\wt\\" + rel.replace("/", "\\"),
             root + "/./" + rel, "tests/../" + rel, "//" + root.lstrip("/") + "/" + rel]
    return rng.choice(forms)


shutil.rmtree(BASE, ignore_errors=True)
path_cases = []
for rel in REL:
    for _ in range(4):
        fp = path_variant(rel)
        path_cases.append({"filepath": fp, "out": normalize_to_relative(fp)})
for fp in ["", "/", str(WORKTREE), str(WORKTREE) + "/", "///tmp/x", "tests\\x.py", ".", "..", "/tmp/gkr-cpython-oracle/worktree/rootx/tests/t.py"]:
    path_cases.append({"filepath": fp, "out": normalize_to_relative(fp)})

detect_cases = []
for _ in range(150):
    existing = sorted(set(rng.sample(REL, rng.randrange(0, 5))))
    shutil.rmtree(BASE, ignore_errors=True)
    WORKTREE.mkdir(parents=True)
    for rel in existing:
        (WORKTREE / rel).parent.mkdir(parents=True, exist_ok=True)
        (WORKTREE / rel).write_text("")
    twr = {}
    for key in ("files_created", "files_modified"):
        if rng.random() < 0.8:
            twr[key] = [path_variant(rng.choice(REL)) for _ in range(rng.randrange(0, 6))]
    detect_cases.append({"existing_files": existing, "task_work_results": twr,
                         "legacy": detect_tests_from_results(twr, False), "fixed": detect_tests_from_results(twr, True)})
shutil.rmtree(BASE, ignore_errors=True)

# ---------------------------------------------------------------------------------------------
# docs/guardkit-logic.md §4.1 `_is_valid_file_path` (fixed).


def is_valid_file_path(path):
    if not path or len(path) < 3:
        return False
    if path in ("*", "**", "***") or path.startswith("*"):
        return False
    return "/" in path or "\\" in path or "." in path


valid_path_cases = []
PATH_BITS = ["/", "\\", ".", "*", "a", "\U0001F600", "e\u0301", " ", "\ufeff", "\u3000", "src", "**"]
for _ in range(300):
    s = "".join(rng.choice(PATH_BITS) for _ in range(rng.randrange(0, 5)))
    valid_path_cases.append({"path": s, "out": is_valid_file_path(s)})

# ---------------------------------------------------------------------------------------------
# docs/guardkit-logic.md §7.5 `_strip_criterion_prefix`, `_extract_keywords`, `_match_by_text`.


def strip_criterion_prefix(text):
    c = text.strip()
    if c.startswith("- [ ] ") or c.startswith("- [x] "):
        return c[6:].strip()
    if c.startswith("* "):
        return c[2:].strip()
    i = 0
    while i < len(c) and c[i].isdigit():
        i += 1
    if i > 0 and i + 2 < len(c) and c[i] in ".)" and c[i + 1] == " ":
        return c[i + 2:].strip()
    return c


STOPWORDS = set(("the and is or a an for with to in of from by on at that this are be do have has as if can will would could should "
                 "may must was were been but not no all some any more most only than then there their who which when where how").split())


def extract_keywords(text):
    return {w for w in text.lower().split() if len(w) > 3 and w not in STOPWORDS and any(ch.isalpha() for ch in w)}


def match_by_text(ac, rm):
    stripped_met = [strip_criterion_prefix(r) for r in rm]
    norm_met = {s.lower().strip() for s in stripped_met}
    results = []
    for text in ac:
        sc = strip_criterion_prefix(text)
        n = sc.lower().strip()
        if n in norm_met:
            results.append(["verified", f"Matched in Player requirements_met: '{text}'"])
            continue
        sub = next((m for m in stripped_met if n in m.lower().strip() or m.lower().strip() in n), None)
        if sub is not None:
            results.append(["verified", f"Substring match with '{sub}'"])
            continue
        ck = extract_keywords(sc)
        if ck:
            best, best_m = 0.0, None
            for m in stripped_met:
                mk = extract_keywords(m)
                if not mk:
                    continue
                score = len(ck & mk) / len(ck | mk)
                if score > best:
                    best, best_m = score, m
            if best >= 0.70:
                results.append(["verified", f"Keyword overlap match ({best:.0%} similarity) with '{best_m}'"])
                continue
        results.append(["rejected", "Not found in Player requirements_met"])
    return results


PREFIXES = ["", "", "- [ ] ", "- [x] ", "- [X] ", "* ", "- ", "1. ", "10) ", "\uff11. ", "\u00b2) ", "\u2460. ", "\u00bd. ",
            "\u2022 ", "\ufeff- [ ] ", "- [ ]\u3000"]
BODIES = ["Config file exists", "config  file exists", "CONFIG FILE EXISTS", "Schema validated", "Stra\u00dfe exists",
          "STRASSE exists", "Implement user registration endpoint with email validation", "", " ", "\u3000\x1c", "\ufeff",
          "logging module configuration added", "Add logging module configuration", "caf\u00e9 \U0001F600 works", "- [ ] nested",
          "10. 20. twice", "AC-001: Config file exists", "Tests: pass; coverage>=80%"]


def criterion():
    ws = ["", "", " ", "\t", "\x1c", "\x85", "\u3000", "\ufeff"]
    return rng.choice(ws) + rng.choice(PREFIXES) + rng.choice(BODIES) + rng.choice(ws)


strip_cases = [{"text": t, "out": strip_criterion_prefix(t)} for t in {criterion() for _ in range(400)}]
strip_cases.sort(key=lambda c: c["text"])
keyword_cases = [{"text": t, "out": sorted(extract_keywords(t))} for t in sorted({criterion() + " " + sample_text(4) for _ in range(150)})]
match_cases = []
for _ in range(150):
    ac = [criterion() for _ in range(rng.randrange(1, 4))]
    rm = [criterion() for _ in range(rng.randrange(0, 4))]
    match_cases.append({"acceptance_criteria": ac, "requirements_met": rm, "results": match_by_text(ac, rm)})

json.dump({
    "generator": "test/props/oracles/cpython_oracle.py",
    "python": sys.version.split()[0],
    "unicode": unicodedata.unidata_version,
    "seed": SEED,
    "worktree": str(WORKTREE),
    "tables": tables,
    "stall": stall_cases,
    "stallSequences": stall_sequences,
    "normalizeToRelative": path_cases,
    "detectTestsFromResults": detect_cases,
    "isValidFilePath": valid_path_cases,
    "stripCriterionPrefix": strip_cases,
    "extractKeywords": keyword_cases,
    "matchByText": match_cases,
}, sys.stdout, ensure_ascii=True, indent=0, sort_keys=False)
sys.stdout.write("\n")
