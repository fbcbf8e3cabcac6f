"""`docgen.helm`: a chart's values flattened to dotted paths, its subcharts and the `.Values` paths its
templates read."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from docgen.helm import charts_near, read_chart, template_reads

VALUES = """\
image:
  repository: nvcr.io/acme/server
  tag: "24.08"
resources:
  limits:
    nvidia.com/gpu: 1
# -- extra labels
# @default -- none
labels: {}
args: [--fast]
debug: off
token:
"""


def test_values_flattened_with_lines_and_defaults(tmp_path: Path) -> None:
    make_tree(tmp_path, {"Chart.yaml": "name: server\n", "values.yaml": VALUES})
    chart = read_chart(tmp_path)
    assert chart is not None and chart.name == "server"
    assert {p: (v.line, v.default, v.empty) for p, v in chart.values.items()} == {
        "image": (1, None, False),
        "image.repository": (2, "nvcr.io/acme/server", False),
        "image.tag": (3, "24.08", False),
        "resources": (4, None, False),
        "resources.limits": (5, None, False),
        "resources.limits.nvidia.com/gpu": (6, "1", False),
        "labels": (9, None, True),
        "args": (10, None, False),
        "debug": (11, "off", False),
        "token": (12, None, True),
    }
    assert chart.values["labels"].described and not chart.values["image.tag"].described
    assert chart.values["args"].listed and not chart.values["labels"].listed
    assert chart.reads is None  # no templates/ folder


def test_template_reads(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "templates/a.yaml": "{{ .Values.image.tag }} {{- with $.Values.gpu }}{{ end }}",
            "templates/_helpers.tpl": '{{ index .Values.resources.limits "nvidia.com/gpu" }}\n'
            "{{ $root.Values.x }}",
        },
    )
    assert template_reads(tmp_path / "templates") == {
        "image.tag",
        "gpu",
        "resources.limits.nvidia.com/gpu",
        "x",
    }
    make_tree(tmp_path, {"templates/b.yaml": "{{ toYaml .Values | nindent 2 }}"})
    assert "" in (template_reads(tmp_path / "templates") or ())


def test_subcharts_and_charts_near(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        {
            "deploy/Chart.yaml": "name: app\ndependencies:\n  - name: postgresql\n    alias: db\n",
            "deploy/values.yaml": "replicas: 1\n",
            "deploy/charts/redis-18.1.0.tgz": "x",
            "other/values.yaml": "a: 1\n",  # a values file with no Chart.yaml below the README: none
            "broken/Chart.yaml": "name: broken\n",
            "broken/values.yaml": "a: [1\n",  # invalid YAML: no chart
            "values.yaml": "b: 2\n",  # beside the README: read even without a Chart.yaml
        },
    )
    charts = charts_near(tmp_path)
    assert [(c.folder.name, c.name) for c in charts] == [(tmp_path.name, None), ("deploy", "app")]
    assert charts[1].subcharts == {"postgresql", "db", "redis"}
