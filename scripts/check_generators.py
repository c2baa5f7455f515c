"""Reads the clients that openapi-python-client and openapi-typescript make from openapi/v1.yaml the
way a new integrator would (default settings) and lists what such a user would trip over:

- any warning either generator prints;
- duplicate enum sets: two generated enum classes with the same set of values (one vocabulary
  declared in several places instead of once as a named component);
- auto-named models: a generated class not named after a components/schemas entry (the names
  openapi-python-client invents for inline schemas: `<Operation>Response200`, `<Schema><Prop>Item`,
  `...Type0`, `<Operation><Param>`);
- formats no generator knows (a custom `format` is silently dropped by every one of them);
- integers that do not fit 32 bits (a bound or example past 2^31 - 1, or Unix milliseconds) without
  `format: int64`: Go and Java generators make them int32/Integer and cannot decode the answers.

Usage: check_generators.py CONTRACT FINDINGS_FILE [TYPESCRIPT_OUTPUT_FILE]
The findings file is rewritten on every run (empty when the contract is clean); exit status 1 when
there is any finding. The TypeScript generator runs in scripts/check-generators (it is an npm
package); its captured output is passed here as the third argument.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import yaml
from openapi_python_client.strings import ClassName

# Formats that OpenAPI 3.1 and JSON Schema define (the ones generators map to types or validate).
STANDARD_FORMATS = {
    "int32",
    "int64",
    "float",
    "double",
    "byte",
    "binary",
    "password",
    "date",
    "date-time",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
}

# openapi-typescript's normal progress lines; anything else it prints is a warning or an error.
TYPESCRIPT_PROGRESS = re.compile(r"^(✨ openapi-typescript \S+|🚀 .* → .*\[[0-9.]+m?s\])$")


def python_generator_findings(contract: Path, venv_bin: Path) -> tuple[list[str], Path, tempfile.TemporaryDirectory[str]]:
    """Runs openapi-python-client with its defaults; returns its warnings and the models folder."""
    workdir = tempfile.TemporaryDirectory(prefix="oads-check-generators-")
    out = Path(workdir.name) / "client"
    env = {**os.environ, "PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}", "NO_COLOR": "1", "TERM": "dumb"}
    run = subprocess.run(
        [str(venv_bin / "openapi-python-client"), "generate", "--path", str(contract), "--output-path", str(out), "--meta", "none"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    findings: list[str] = []
    output = (run.stdout + run.stderr).strip()
    lines = [line for line in output.splitlines() if line.strip() and not line.startswith("Generating ")]
    if run.returncode != 0 or lines:
        findings.append(f"openapi-python-client (exit {run.returncode}) printed:")
        findings.extend(f"    {line}" for line in lines)
    return findings, out / "models", workdir


def generated_classes(models: Path) -> dict[str, tuple[str, frozenset[object] | None]]:
    """Every top-level class in the generated models: name -> (module file, enum values or None)."""
    classes: dict[str, tuple[str, frozenset[object] | None]] = {}
    for file in sorted(models.glob("*.py")):
        if file.name == "__init__.py":
            continue
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {ast.unparse(base) for base in node.bases}
            values: frozenset[object] | None = None
            if bases & {"Enum", "StrEnum", "IntEnum"}:
                values = frozenset(stmt.value.value for stmt in node.body if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant))
            classes[node.name] = (file.name, values)
    return classes


def model_findings(contract_doc: dict, models: Path) -> list[str]:
    schema_names = list((contract_doc.get("components") or {}).get("schemas") or {})
    allowed = {str(ClassName(name, "field_")) for name in schema_names}
    classes = generated_classes(models)
    findings: list[str] = []

    auto_named = sorted(name for name in classes if name not in allowed)
    if auto_named:
        findings.append(f"{len(auto_named)} auto-named classes (not named after a components/schemas entry):")
        findings.extend(f"    {name} ({classes[name][0]})" for name in auto_named)

    by_values: dict[frozenset[object], list[str]] = defaultdict(list)
    for name, (_, values) in classes.items():
        if values is not None:
            by_values[values].append(name)
    duplicates = sorted((sorted(names) for names in by_values.values() if len(names) > 1), key=lambda names: names[0])
    enum_count = sum(1 for _, values in classes.values() if values is not None)
    if duplicates:
        findings.append(f"duplicate enum sets: {enum_count} enum classes for {len(by_values)} value sets; sets declared more than once:")
        for names in duplicates:
            values = sorted(map(str, classes[names[0]][1] or ()))
            findings.append(f"    [{', '.join(values)}] in {len(names)} classes: {', '.join(names)}")
    return findings


def format_findings(node: object, where: str, found: dict[str, list[str]]) -> None:
    if isinstance(node, dict):
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in STANDARD_FORMATS:
            found[fmt].append(where)
        for key, value in node.items():
            if key in ("examples", "example", "x-codeSamples"):
                continue
            format_findings(value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            format_findings(value, f"{where}/{index}", found)


INT32_MAX = 2**31 - 1
UNIX_MS = re.compile(r"\bunix\b[^.]*\b(ms|milliseconds)\b|\bepoch milliseconds\b", re.IGNORECASE)


def int64_findings(node: object, where: str, found: list[str]) -> None:
    """Integer schemas that need format: int64 and lack it."""
    if isinstance(node, dict):
        types = node.get("type")
        is_integer = types == "integer" or (isinstance(types, list) and "integer" in types)
        if is_integer and node.get("format") != "int64":
            numbers = [node.get(key) for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "default", "example")]
            numbers += list(node.get("examples") or []) + list(node.get("enum") or [])
            large = any(isinstance(n, int) and not isinstance(n, bool) and abs(n) > INT32_MAX for n in numbers)
            if large or UNIX_MS.search(str(node.get("description", ""))):
                found.append(where)
        for key, value in node.items():
            if key not in ("examples", "example"):
                int64_findings(value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            int64_findings(value, f"{where}/{index}", found)


def typescript_findings(output_file: Path) -> list[str]:
    text = output_file.read_text(encoding="utf-8") if output_file.exists() else ""
    status, _, output = text.partition("\n")
    lines = [line for line in output.splitlines() if line.strip() and not TYPESCRIPT_PROGRESS.match(line.strip())]
    if status.strip() != "0" or lines:
        return [f"openapi-typescript (exit {status.strip()}) printed:", *(f"    {line}" for line in lines)]
    return []


def main() -> int:
    contract = Path(sys.argv[1]).resolve()
    findings_file = Path(sys.argv[2])
    typescript_output = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    venv_bin = Path(sys.executable).parent
    contract_doc = yaml.safe_load(contract.read_text(encoding="utf-8"))

    findings: list[str] = []
    generator_findings, models, workdir = python_generator_findings(contract, venv_bin)
    with workdir:
        findings += generator_findings
        if models.is_dir():
            findings += model_findings(contract_doc, models)
        else:
            findings.append("openapi-python-client wrote no models folder")
    if typescript_output is not None:
        findings += typescript_findings(typescript_output)

    formats: dict[str, list[str]] = defaultdict(list)
    format_findings(contract_doc, "#", formats)
    for fmt, places in sorted(formats.items()):
        findings.append(
            f"format: {fmt} is known to no generator (use a standard constraint such as multipleOf or a pattern, the rule in the description), at {len(places)} places:"
        )
        findings.extend(f"    {place}" for place in places)

    int64: list[str] = []
    int64_findings(contract_doc, "#", int64)
    if int64:
        findings.append(f"{len(int64)} integers past 32 bits (bounds, examples or Unix ms) without format: int64:")
        findings.extend(f"    {place}" for place in int64)

    findings_file.write_text("".join(f"{line}\n" for line in findings), encoding="utf-8")
    if findings:
        print("\n".join(findings))
        print(f"check-generators: the generated clients are not clean (listed in {findings_file})", file=sys.stderr)
        return 1
    print("check-generators: openapi-python-client and openapi-typescript read the contract cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
