"""The release, written once: the package's version (pyproject.toml reads it from here), which
``/health`` answers, both OpenAPI documents give as ``info.version`` and the image is tagged with
(tests/test_version.py checks the deployment files and CHANGELOG.md against it). A leaf: it
imports nothing."""

VERSION = "2.8.0"
