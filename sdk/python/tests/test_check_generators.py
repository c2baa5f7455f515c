"""scripts/check_generators.py on two small contracts: one with each fault the check exists for, and
the same contract with the faults repaired (named components, int64, double, a standard constraint,
an example without a $ref)."""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

CHECK = Path(__file__).parents[3] / "scripts" / "check_generators.py"

SIDE = {"type": "string", "enum": ["ask", "bid"]}
FAULTY = {
    "openapi": "3.1.0",
    "info": {"title": "Check", "version": "1"},
    "paths": {
        "/prints": {
            "get": {
                "operationId": "listPrints",
                "parameters": [
                    {"name": "side", "in": "query", "schema": copy.deepcopy(SIDE)},
                    {"name": "strike", "in": "query", "schema": {"type": "number", "format": "strike"}},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": {"type": "object", "properties": {"data": {"$ref": "#/components/schemas/Print"}}}}},
                    }
                },
            }
        }
    },
    "components": {
        "schemas": {
            "Print": {
                "type": "object",
                "properties": {"side": copy.deepcopy(SIDE), "timestamp": {"type": "integer", "examples": [1763649000000]}},
                # An example embedding another document: its $ref resolves nowhere in this one.
                "examples": [{"side": "ask", "timestamp": 1763649000000, "stream": {"$ref": "#/components/messages/print"}}],
            }
        }
    },
}


def repaired() -> dict:
    contract = copy.deepcopy(FAULTY)
    contract["components"]["schemas"]["Side"] = copy.deepcopy(SIDE)
    contract["components"]["schemas"]["PrintPage"] = {"type": "object", "properties": {"data": {"$ref": "#/components/schemas/Print"}}}
    contract["components"]["schemas"]["Print"]["properties"] = {
        "side": {"$ref": "#/components/schemas/Side"},
        "timestamp": {"type": "integer", "format": "int64", "examples": [1763649000000]},
    }
    contract["components"]["schemas"]["Print"]["examples"] = [{"side": "ask", "timestamp": 1763649000000}]
    operation = contract["paths"]["/prints"]["get"]
    operation["parameters"] = [
        {"name": "side", "in": "query", "schema": {"$ref": "#/components/schemas/Side"}},
        {"name": "strike", "in": "query", "schema": {"type": "number", "format": "double", "multipleOf": 0.001}},
    ]
    operation["responses"]["200"]["content"]["application/json"]["schema"] = {"$ref": "#/components/schemas/PrintPage"}
    return contract


def check(tmp_path: Path, contract: dict) -> tuple[int, str]:
    path = tmp_path / "contract.yaml"
    path.write_text(yaml.safe_dump(contract), encoding="utf-8")
    findings = tmp_path / "findings.txt"
    run = subprocess.run([sys.executable, str(CHECK), str(path), str(findings)], capture_output=True, text=True, check=False)
    return run.returncode, findings.read_text(encoding="utf-8")


def test_each_fault_is_found(tmp_path: Path) -> None:
    status, findings = check(tmp_path, FAULTY)
    assert status == 1
    assert "ListPrintsResponse200 (list_prints_response_200.py)" in findings
    assert "ListPrintsSide (list_prints_side.py)" in findings
    assert "PrintSide (print_side.py)" in findings
    assert "[ask, bid] in 2 classes: ListPrintsSide, PrintSide" in findings
    assert "format: strike is known to no generator" in findings
    assert "#/components/schemas/Print/properties/timestamp" in findings
    assert "1 numbers without format: double" in findings
    assert "#/paths//prints/get/parameters/1/schema" in findings
    assert "#/components/schemas/Print/examples/0/stream: #/components/messages/print" in findings


def test_the_repaired_contract_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, repaired()) == (0, "")


# Two enums sharing a value: openapi-generator's Go client declares both constants ASK at package
# level and does not build, until x-enum-varnames names them apart. Needs the pinned generator
# (scripts/generator-tools, run by `make check-generators` before these tests) and go.
JARS = sorted((Path(__file__).parents[3] / "build" / "tools").glob("openapi-generator-cli-*.jar"))


def enums_sharing_a_value(varnames: bool) -> dict:
    contract = repaired()
    contract["components"]["schemas"]["QuoteSide"] = {"type": "string", "enum": ["ask", "bid", "mid"]}
    contract["components"]["schemas"]["Print"]["properties"]["quote_side"] = {"$ref": "#/components/schemas/QuoteSide"}
    if varnames:
        contract["components"]["schemas"]["Side"]["x-enum-varnames"] = ["SIDE_ASK", "SIDE_BID"]
        contract["components"]["schemas"]["QuoteSide"]["x-enum-varnames"] = ["QUOTE_SIDE_ASK", "QUOTE_SIDE_BID", "QUOTE_SIDE_MID"]
    return contract


def check_go(tmp_path: Path, contract: dict) -> tuple[int, str]:
    path = tmp_path / "contract.yaml"
    path.write_text(yaml.safe_dump(contract), encoding="utf-8")
    findings = tmp_path / "findings.txt"
    command = [sys.executable, str(CHECK), str(path), str(findings), "--openapi-generator-go", str(JARS[-1])]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    return run.returncode, findings.read_text(encoding="utf-8")


@pytest.mark.skipif(not JARS or shutil.which("go") is None, reason="openapi-generator (scripts/generator-tools) or go is not installed")
def test_go_enum_constants_that_collide_are_found(tmp_path: Path) -> None:
    status, findings = check_go(tmp_path, enums_sharing_a_value(varnames=False))
    assert status == 1
    assert "openapi-generator's Go client does not build:" in findings
    assert "ASK redeclared" in findings


@pytest.mark.skipif(not JARS or shutil.which("go") is None, reason="openapi-generator (scripts/generator-tools) or go is not installed")
def test_go_enum_constants_named_apart_build(tmp_path: Path) -> None:
    assert check_go(tmp_path, enums_sharing_a_value(varnames=True)) == (0, "")
