"""One version everywhere: the package's (service/version.py, which pyproject.toml reads) is the
one /health answers, both OpenAPI documents give, the image is tagged and labelled with, and the
README and CHANGELOG.md name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

from host.spec import generate as host_spec
from service.version import VERSION

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_reads_the_version_from_the_one_constant():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "service.version.VERSION"}


def test_health_and_both_documents_say_the_version(client):
    assert client.get("/health").get_json()["version"] == VERSION
    assert client.get("/openapi.json").get_json()["info"]["version"] == VERSION
    assert yaml.safe_load((ROOT / "openapi.yaml").read_text())["info"]["version"] == VERSION
    assert yaml.safe_load((ROOT / "host/openapi.yaml").read_text())["info"]["version"] == VERSION
    assert yaml.safe_load(host_spec())["info"]["version"] == VERSION


def test_the_image_is_tagged_and_labelled_with_the_version():
    kustomization = yaml.safe_load((ROOT / "deploy/kubernetes/kustomization.yaml").read_text())
    assert [image["newTag"] for image in kustomization["images"]] == [VERSION]
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    built = {name: service["image"] for name, service in compose.items() if "build" in service}
    assert built == {"app": f"card-rules-service:{VERSION}", "tables": f"card-rules-service:{VERSION}"}
    label = re.search(r'org\.opencontainers\.image\.version="([^"]+)"', (ROOT / "Dockerfile").read_text())
    assert label and label.group(1) == VERSION
    tags = re.findall(r"card-rules-service:([\w.-]+)", (ROOT / "deploy/kubernetes/README.md").read_text())
    assert tags and set(tags) == {VERSION}


def test_readme_and_changelog_name_the_version():
    assert f"This is version {VERSION}." in (ROOT / "README.md").read_text()
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\] - (\d{4}-\d\d-\d\d)$", changelog, flags=re.MULTILINE)
    assert releases[0][0] == VERSION
    assert [date for _, date in releases] == sorted(date for _, date in releases)[::-1]
