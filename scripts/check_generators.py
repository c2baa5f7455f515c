"""Reads the clients that generators make from a contract the way a new integrator would (default
settings) and lists what such a user would trip over:

- any warning a generator prints, or a generator that stops;
- duplicate enum sets: two generated enum classes with the same set of values (one vocabulary
  declared in several places instead of once as a named component);
- auto-named models: a generated class not named after a components/schemas entry (the names
  openapi-python-client invents for inline schemas: `<Operation>Response200`, `<Schema><Prop>Item`,
  `...Type0`, `<Operation><Param>`; openapi-generator's `<Schema>_anyOf_inner`, `..._data_inner`);
- formats no generator knows (a custom `format` is silently dropped by every one of them);
- integers that do not fit 32 bits (a bound or example past 2^31 - 1, or Unix milliseconds) without
  `format: int64`: Go and Java generators make them int32/Integer and cannot decode the answers;
- numbers without `format: double`: Go generators make them float32 (599.5596833 arrives as 599.5597);
- a `$ref` that resolves nowhere in the document (an example that embeds another document's
  references: @hey-api/openapi-ts crashed on one, orval warned);
- with --go: oapi-codegen's client (types and client) must generate and build (`go build`), with
  no float32; with --java: openapi-generator's Java `native` client must generate without a warning
  and compile (`mvn compile`), with no Float and no model but the contract's schemas; with
  --openapi-generator-go: openapi-generator's Go client likewise, built with `go build` (its enum
  constants are package-level: enums sharing a value need x-enum-varnames to tell them apart);
- with --hey-api: the captured output of @hey-api/openapi-ts (run by scripts/check-generators).

Usage: check_generators.py CONTRACT FINDINGS_FILE [TYPESCRIPT_OUTPUT_FILE] [--hey-api OUTPUT_FILE]
                           [--go OAPI_CODEGEN] [--java OPENAPI_GENERATOR_JAR]
                           [--openapi-generator-go OPENAPI_GENERATOR_JAR]
CONTRACT is YAML or JSON (the served document, /v1/openapi.json, is JSON). The findings file is
rewritten on every run (empty when the contract is clean); exit status 1 when there is any
finding. The TypeScript generators run in scripts/check-generators (they are npm packages); their
captured output is passed here.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
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


def double_findings(node: object, where: str, found: list[str]) -> None:
    """Number schemas (`number`, or `number` and `null`) without format: double."""
    if isinstance(node, dict):
        types = node.get("type")
        kinds = {t for t in types if isinstance(t, str)} if isinstance(types, list) else {types} if isinstance(types, str) else set()
        if "number" in kinds and kinds <= {"number", "null"} and node.get("format") != "double":
            found.append(where)
        for key, value in node.items():
            if key not in ("examples", "example"):
                double_findings(value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            double_findings(value, f"{where}/{index}", found)


def unresolved_refs(doc: dict, node: object, where: str, found: list[str]) -> None:
    """Every `$ref` member, examples included (a generator follows them there too), that resolves nowhere in doc."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target: object = doc
            if ref.startswith("#"):
                for part in ref.removeprefix("#").removeprefix("/").split("/") if ref != "#" else []:
                    part = part.replace("~1", "/").replace("~0", "~")
                    target = target.get(part) if isinstance(target, dict) else None  # type: ignore[assignment]
            else:
                target = None
            if target is None:
                found.append(f"{where}: {ref}")
        for key, value in node.items():
            unresolved_refs(doc, value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            unresolved_refs(doc, value, f"{where}/{index}", found)


# @hey-api/openapi-ts's progress lines (NO_COLOR); anything else it prints is a warning or an error.
HEY_API_PROGRESS = re.compile(r"^(@hey-api/openapi-ts v\S+|(\[Job \d+\])?\s*(⏳ Generating from \d+ inputs?:|\[\d+\] \S+|✅ Done!.*))$")


def hey_api_findings(output_file: Path) -> list[str]:
    text = output_file.read_text(encoding="utf-8") if output_file.exists() else ""
    status, _, output = text.partition("\n")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", output)  # it colours its lines whatever NO_COLOR says
    lines = [line for line in plain.splitlines() if line.strip() and not HEY_API_PROGRESS.match(line.strip())]
    if status.strip() != "0" or lines:
        return [f"@hey-api/openapi-ts (exit {status.strip()}) printed:", *(f"    {line}" for line in lines[:40])]
    return []


def run(command: list[str], cwd: Path, timeout: int = 600) -> tuple[int, str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=timeout, env={**os.environ, "NO_COLOR": "1"})
    return done.returncode, (done.stdout + done.stderr).strip()


def operation_type_prefixes(doc: dict) -> set[str]:
    ids = [op["operationId"] for item in (doc.get("paths") or {}).values() for op in item.values() if isinstance(op, dict) and "operationId" in op]
    return {operation_id[0].upper() + operation_id[1:] for operation_id in ids}


# oapi-codegen's own client types, named by it whatever the contract.
GO_CLIENT_TYPES = {"RequestEditorFn", "HttpRequestDoer", "Client", "ClientOption", "ClientInterface", "ClientWithResponses", "ClientWithResponsesInterface"}


def go_findings(contract: Path, doc: dict, oapi_codegen: Path, work: Path) -> list[str]:
    """oapi-codegen (types and client): generates silently and builds; no float32, no type named by neither a component nor an operation."""
    out = work / "go"
    out.mkdir()
    code, output = run([str(oapi_codegen), "-generate", "types,client", "-package", "oads", "-o", "oads.gen.go", str(contract)], out)
    if code != 0 or output:
        return [f"oapi-codegen (exit {code}) printed:", *(f"    {line}" for line in output.splitlines()[:40])]
    (out / "go.mod").write_text("module example.invalid/oads\n\ngo 1.22\n", encoding="utf-8")
    findings: list[str] = []
    code, output = run(["go", "mod", "tidy"], out)
    if code == 0:
        code, output = run(["go", "build", "./..."], out)
    if code != 0:
        findings += ["oapi-codegen's client does not build:", *(f"    {line}" for line in output.splitlines()[:40])]
    source = (out / "oads.gen.go").read_text(encoding="utf-8")
    float32 = sorted({match.group(1) for match in re.finditer(r"^\s*(\w+)\s+\*?(?:\[\])?float32\b", source, re.MULTILINE)})
    if float32:
        findings.append(f"oapi-codegen makes {len(float32)} fields float32 (a number without format: double): {', '.join(float32[:20])}")
    components = {name for group in ("schemas", "parameters", "responses", "requestBodies") for name in (doc.get("components") or {}).get(group) or {}}
    prefixes = operation_type_prefixes(doc)
    types = re.findall(r"^type (\w+) ", source, re.MULTILINE)
    auto = sorted(name for name in types if name not in components and name not in GO_CLIENT_TYPES and not any(name.startswith(p) for p in prefixes))
    if auto:
        findings.append(f"oapi-codegen names {len(auto)} types itself: {', '.join(auto[:20])}")
    return findings


# openapi-generator's lines at WARN or ERROR that say nothing about the contract: its banner for
# every OpenAPI 3.1 document, and a message of its own 3.1 handling (ModelUtils.getSimpleRef called
# on a schema without a $ref) that names no schema and changes no output.
JAVA_KNOWN_WARNINGS = (
    "OpenAPI 3.1 support is still in beta.",
    "Failed to get the schema name: null",
)
# openapi-generator's base class of every oneOf/anyOf model (not a model of the contract).
JAVA_SUPPORT_CLASSES = {"AbstractOpenApiSchema"}


def java_findings(contract: Path, doc: dict, jar: Path, work: Path) -> list[str]:
    """openapi-generator's Java client, library native: no warning, compiles, no Float, every model a component."""
    out = work / "java"
    code, output = run(["java", "-jar", str(jar), "generate", "-i", str(contract), "-g", "java", "--library", "native", "-o", str(out)], work)
    noted = [line for line in output.splitlines() if re.search(r"\b(WARN|ERROR)\b", line) and not any(known in line for known in JAVA_KNOWN_WARNINGS)]
    if code != 0 or noted:
        failed = [f"openapi-generator java/native (exit {code}) printed:", *(f"    {line}" for line in (noted or output.splitlines()[-20:])[:40])]
        if code != 0:
            return failed
    else:
        failed = []
    findings = failed
    code, output = run(["mvn", "-B", "-q", "-DskipTests", "-Dmaven.javadoc.skip=true", "compile"], out, timeout=900)
    if code != 0:
        errors = [line for line in output.splitlines() if "ERROR" in line] or output.splitlines()[-20:]
        findings += ["openapi-generator's Java native client does not compile:", *(f"    {line}" for line in errors[:40])]
    models = out / "src" / "main" / "java" / "org" / "openapitools" / "client" / "model"
    schemas = set((doc.get("components") or {}).get("schemas") or {})
    classes = sorted(file.stem for file in models.glob("*.java"))
    auto = [name for name in classes if name not in schemas and name not in JAVA_SUPPORT_CLASSES]
    if auto:
        findings.append(f"openapi-generator java/native names {len(auto)} models itself: {', '.join(auto[:20])}")
    floats = sorted({file.stem for file in models.glob("*.java") if re.search(r"\bFloat\s+\w+\s*[;=,)]|<Float>", file.read_text(encoding="utf-8"))})
    if floats:
        findings.append(f"openapi-generator java/native uses Float (a number without format: double) in: {', '.join(floats[:20])}")
    return findings


def openapi_generator_go_findings(contract: Path, doc: dict, jar: Path, work: Path) -> list[str]:
    """openapi-generator's Go client: no warning, builds (`go build`: it declares every enum's
    constants at package level, so two enums sharing a value collide unless x-enum-varnames names
    them apart), no float32 field, every model a component."""
    out = work / "go-openapi-generator"
    code, output = run(["java", "-jar", str(jar), "generate", "-i", str(contract), "-g", "go", "-o", str(out)], work)
    noted = [line for line in output.splitlines() if re.search(r"\b(WARN|ERROR)\b", line) and not any(known in line for known in JAVA_KNOWN_WARNINGS)]
    findings: list[str] = []
    if code != 0 or noted:
        findings = [f"openapi-generator go (exit {code}) printed:", *(f"    {line}" for line in (noted or output.splitlines()[-20:])[:40])]
        if code != 0:
            return findings
    shutil.rmtree(out / "test", ignore_errors=True)  # its test stubs only (testify); not the client
    code, output = run(["go", "mod", "tidy"], out)
    if code == 0:
        code, output = run(["go", "build", "-gcflags=-e", "./..."], out)
    if code != 0:
        findings += ["openapi-generator's Go client does not build:", *(f"    {line}" for line in output.splitlines()[:40])]
    schemas = set((doc.get("components") or {}).get("schemas") or {})
    models = sorted(out.glob("model_*.go"))
    float32 = sorted({file.stem for file in models if re.search(r"\bfloat32\b", file.read_text(encoding="utf-8"))})
    if float32:
        findings.append(f"openapi-generator go uses float32 (a number without format: double) in: {', '.join(float32[:20])}")
    # Besides each model, it declares `type _Name Name` (its decoder's alias) and NullableName.
    types = {name for file in models for name in re.findall(r"^type (\w+) ", file.read_text(encoding="utf-8"), re.MULTILINE)}
    auto = sorted(name for name in types if name.removeprefix("_").removeprefix("Nullable") not in schemas)
    if auto:
        findings.append(f"openapi-generator go names {len(auto)} models itself: {', '.join(auto[:20])}")
    return findings


def typescript_findings(output_file: Path) -> list[str]:
    text = output_file.read_text(encoding="utf-8") if output_file.exists() else ""
    status, _, output = text.partition("\n")
    lines = [line for line in output.splitlines() if line.strip() and not TYPESCRIPT_PROGRESS.match(line.strip())]
    if status.strip() != "0" or lines:
        return [f"openapi-typescript (exit {status.strip()}) printed:", *(f"    {line}" for line in lines)]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("contract", type=Path)
    parser.add_argument("findings", type=Path)
    parser.add_argument("typescript_output", type=Path, nargs="?")
    parser.add_argument("--hey-api", type=Path, dest="hey_api")
    parser.add_argument("--go", type=Path, help="oapi-codegen to run on the contract")
    parser.add_argument("--java", type=Path, help="the openapi-generator CLI jar to run on the contract (its Java native client)")
    parser.add_argument("--openapi-generator-go", type=Path, dest="openapi_generator_go", help="the openapi-generator CLI jar to run on the contract (its Go client)")
    args = parser.parse_args()
    contract = args.contract.resolve()
    findings_file: Path = args.findings
    venv_bin = Path(sys.executable).parent
    text = contract.read_text(encoding="utf-8")
    contract_doc = json.loads(text) if contract.suffix == ".json" else yaml.safe_load(text)

    findings: list[str] = []
    generator_findings, models, workdir = python_generator_findings(contract, venv_bin)
    with workdir:
        findings += generator_findings
        if models.is_dir():
            findings += model_findings(contract_doc, models)
        else:
            findings.append("openapi-python-client wrote no models folder")
    if args.typescript_output is not None:
        findings += typescript_findings(args.typescript_output)
    if args.hey_api is not None:
        findings += hey_api_findings(args.hey_api)
    if args.go is not None or args.java is not None or args.openapi_generator_go is not None:
        work = Path(tempfile.mkdtemp(prefix="oads-check-generators-compiled-"))
        try:
            if args.go is not None:
                findings += go_findings(contract, contract_doc, args.go.resolve(), work)
            if args.java is not None:
                findings += java_findings(contract, contract_doc, args.java.resolve(), work)
            if args.openapi_generator_go is not None:
                findings += openapi_generator_go_findings(contract, contract_doc, args.openapi_generator_go.resolve(), work)
        finally:
            shutil.rmtree(work, ignore_errors=True)

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

    doubles: list[str] = []
    double_findings(contract_doc, "#", doubles)
    if doubles:
        findings.append(f"{len(doubles)} numbers without format: double (Go generators make them float32):")
        findings.extend(f"    {place}" for place in doubles)

    unresolved: list[str] = []
    unresolved_refs(contract_doc, contract_doc, "#", unresolved)
    if unresolved:
        findings.append(f"{len(unresolved)} $refs resolve nowhere in the document:")
        findings.extend(f"    {place}" for place in unresolved[:40])

    findings_file.write_text("".join(f"{line}\n" for line in findings), encoding="utf-8")
    if findings:
        print("\n".join(findings))
        print(f"check-generators: the generated clients of {args.contract} are not clean (listed in {findings_file})", file=sys.stderr)
        return 1
    print(f"check-generators: the generators read {args.contract} cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
