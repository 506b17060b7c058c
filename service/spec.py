"""``python -m service.spec`` prints the OpenAPI document (YAML) that ``make spec`` commits."""

from __future__ import annotations

import sys

from service import create_app
from service.api.docs import render_yaml


def generate() -> str:
    app = create_app()
    with app.app_context():
        return render_yaml(app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict())


if __name__ == "__main__":
    sys.stdout.write(generate())
