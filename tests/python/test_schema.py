"""`hetvp schema`: a JSON Schema of the configuration format that accepts every shipped config and
rejects misspelled keys and bad choices."""
import copy
import glob
import json
import os
import subprocess

import jsonschema
import pytest
import yaml

SRC = os.environ["HETVP_SOURCE_DIR"]
BIN = os.environ["HETVP_BIN"]
CONFIGS = sorted(glob.glob(os.path.join(SRC, "configs", "*.yaml")))


@pytest.fixture(scope="module")
def validator():
    out = subprocess.run([BIN, "schema"], check=True, capture_output=True, text=True).stdout
    schema = json.loads(out)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def errors(validator, doc):
    return [e.message for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("path", CONFIGS, ids=os.path.basename)
def test_every_config_is_valid(validator, path):
    assert errors(validator, load(path)) == []


def test_misspelled_keys_are_rejected(validator):
    doc = load(os.path.join(SRC, "configs", "default.yaml"))
    bad = copy.deepcopy(doc)
    bad["pcie0"]["lanse"] = bad["pcie0"].pop("lanes")
    assert any("'lanse' was unexpected" in m for m in errors(validator, bad))
    bad = copy.deepcopy(doc)
    bad["simulation"]["seeed"] = 3
    assert any("'seeed' was unexpected" in m for m in errors(validator, bad))
    bad = copy.deepcopy(doc)
    bad["workload"]["args"]["max_sise"] = "1 MiB"  # transfer's arguments
    assert any("'max_sise' was unexpected" in m for m in errors(validator, bad))


def test_bad_values_are_rejected(validator):
    doc = load(os.path.join(SRC, "configs", "default.yaml"))
    bad = copy.deepcopy(doc)
    bad["pcie0"]["lanes"] = 3
    assert errors(validator, bad)
    bad = copy.deepcopy(doc)
    bad["pcie0"]["type"] = "pcie_lnk"
    assert errors(validator, bad)
    bad = copy.deepcopy(doc)
    bad["workload"]["name"] = "tranfser"
    assert errors(validator, bad)
