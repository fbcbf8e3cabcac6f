"""`docgen audit`: a README's tables and lists of a Helm chart's values and the `--set` keys of its
`helm install` commands, against the chart's values.yaml (docgen/audit/chart_values.py, docgen/helm.py)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers import make_tree

from docgen.audit import audit
from docgen.pipeline import build_model

APP = 'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nCMD ["serve"]\n'
CHART = "apiVersion: v2\nname: infer\nversion: 0.3.0\ndependencies:\n  - name: redis\n    version: 18.x\n"
VALUES = """\
replicaCount: 1
image:
  repository: ghcr.io/acme/infer
  # the chart's appVersion when empty
  tag: ""
  pullPolicy: IfNotPresent
servedModel: acme/small-7b
maxBatch: 16
metrics:
  enabled: yes
server:
  ports:
    http: 8000
resources: {}
podAnnotations: {}
tolerations: []
nodeSelector:
# -- Worker processes
# @default -- one per GPU
workers: 2
"""
DEPLOYMENT = """\
spec:
  replicas: {{ .Values.replicaCount }}
  containers:
    - image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
      args: ["--model", {{ .Values.servedModel | quote }}, "--max-batch", "{{ .Values.maxBatch }}"]
      {{- with .Values.extraArgs }}
      {{- toYaml . | nindent 8 }}
      {{- end }}
      resources: {{- toYaml .Values.resources | nindent 8 }}
"""

SERVED = "chart/values.yaml:7 names it servedModel"


def found(
    root: Path, readme: str, files: Mapping[str, str] | None = None, where: str = "chart/"
) -> list[tuple[int, str, str]]:
    tree = {
        "Dockerfile": APP,
        f"{where}Chart.yaml": CHART,
        f"{where}values.yaml": VALUES,
        f"{where}templates/deployment.yaml": DEPLOYMENT,
        "README.md": readme,
    }
    tree.update(files or {})
    make_tree(root, {k: v for k, v in tree.items() if v})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "chart value" in d.message
    ]


def table(heading: str, header: str, rows: str) -> str:
    columns = header.count("|") - 1
    return f"# Inference server\n\n## {heading}\n\n{header}\n{'|---' * columns}|\n{rows}"


def test_documented_keys_renamed_or_gone(tmp_path: Path) -> None:
    readme = table(
        "Parameters",
        "| Parameter | Description | Default |",
        "| `image.repository` | Image to run | `ghcr.io/acme/infer` |\n"
        "| `served_model` | Model to serve | `acme/small-7b` |\n"
        "| `server.port` | HTTP port | `8000` |\n"
        "| `maxBatch` | Batch size | `16` |\n",
    )
    assert found(tmp_path, readme) == [
        (
            8,
            "README documents chart value served_model, but chart/values.yaml:7 names it servedModel",
            "certain",
        ),
        (
            9,
            "README documents chart value server.port, but chart/values.yaml has no such key and no template "
            "under chart/templates reads it (nearest: server.ports, chart/values.yaml:12)",
            "certain",
        ),
    ]


def test_the_nearest_true_table(tmp_path: Path) -> None:
    readme = table(
        "Configuration",
        "| Key | Type | Default | Description |",
        # helm-docs: keys without code, quoted strings, `{}` and `nil`
        '| image.pullPolicy | string | `"IfNotPresent"` | |\n'
        '| image.tag | string | `"v2.0"` | |\n'  # (values.yaml leaves it empty for the templates)
        "| workers | int | `one per GPU` | |\n"  # (its default is described: `@default --`)
        "| maxBatch | int | `16` | |\n"
        "| metrics.enabled | bool | `true` | |\n"  # `yes` in values.yaml
        "| replicaCount | int | `1.0` | |\n"
        "| resources | object | `{}` | |\n"
        "| nodeSelector | object | `nil` | |\n"
        "| tolerations | list | `[]` | |\n"
        # a key under an empty map, an item of a list, one the templates read, a subchart's
        '| resources.limits."nvidia.com/gpu" | int | `1` | GPUs per pod |\n'
        '| podAnnotations.prometheus.io/scrape | string | `"true"` | |\n'
        "| tolerations[0].key | string | `nvidia.com/gpu` | |\n"
        "| extraArgs | list | `[]` | Optional extra arguments |\n"
        "| redis.auth.enabled | bool | `false` | |\n",
    )
    assert found(tmp_path, readme) == []


def test_a_default_that_differs(tmp_path: Path) -> None:
    readme = table(
        "Values",
        "| Name | Description | Value |",
        "| `replicaCount` | Replicas | `2` |\n"
        "| `image.pullPolicy` | Pull policy | `Always` (see below) |\n"
        "| `image.repository` | Image | see `values.yaml` |\n"  # (words: no claim)
        "| `servedModel` | Model | `acme/small-7b` |\n",
    )
    assert found(tmp_path, readme) == [
        (7, "README says chart value replicaCount defaults to 2, but chart/values.yaml:1 gives 1", "certain"),
        (
            8,
            "README says chart value image.pullPolicy defaults to Always, but chart/values.yaml:6 gives "
            "IfNotPresent",
            "certain",
        ),
    ]


def test_a_list_of_template_variables(tmp_path: Path) -> None:
    readme = (
        "# Inference\n\n## Main template variables\n\n"
        "- `replicaCount`: how many pods\n"
        "- `served_model` (required): the Hugging Face model id\n"
        "- **`max_batch`** - requests per batch\n"
        "- `draft_model` (optional): a speculative decoding model\n"
        "\nThe chart is in `chart/`.\n"
    )
    assert found(tmp_path, readme) == [
        (
            6,
            "README documents chart value served_model, but chart/values.yaml:7 names it servedModel",
            "certain",
        ),
        (7, "README documents chart value max_batch, but chart/values.yaml:8 names it maxBatch", "certain"),
        (
            8,
            "README documents chart value draft_model, but chart/values.yaml has no such key and no "
            "template under chart/templates reads it",
            "certain",
        ),
    ]


def test_a_values_file_without_a_chart_beside_it(tmp_path: Path) -> None:
    """A values file with no Chart.yaml and no templates: a key gone is `likely` (a chart elsewhere may
    read it); a key named otherwise stays `certain`; defaults are not compared."""
    readme = table(
        "Template values",
        "| Key | Default |",
        "| `servedModel` | `other/model` |\n| `max_batch` | `16` |\n| `gpu_count` | `1` |\n",
    )
    files = {"Chart.yaml": "", "templates/deployment.yaml": ""}
    assert found(tmp_path, readme, files, where="") == [
        (8, "README documents chart value max_batch, but values.yaml:8 names it maxBatch", "certain"),
        (9, "README documents chart value gpu_count, but values.yaml has no such key", "likely"),
    ]


@pytest.mark.parametrize(
    "readme",
    [
        # environment variables, not values
        table("Configuration", "| Variable | Default |", "| `MODEL` | `x` |\n| `PORT` | `80` |\n"),
        # a table about something else whose names are mostly not values
        table("Options", "| Option | Meaning |", "| `fast` | x |\n| `slow_mode` | y |\n| `maxBatch` | z |\n"),
        # no word about values
        table("Benchmarks", "| Model | Tokens/s |", "| `servedModel` | 1 |\n| `model_b` | 2 |\n"),
        # one key only
        table("Parameters", "| Parameter | Default |", "| `served_model` | x |\n"),
    ],
)
def test_tables_left_alone(tmp_path: Path, readme: str) -> None:
    assert found(tmp_path, readme) == []


def install(command: str) -> str:
    return f"# Inference\n\n## Deploy\n\n```bash\n{command}\n```\n"


def test_a_set_key_the_chart_does_not_take(tmp_path: Path) -> None:
    readme = install(
        "helm install llm ./chart \\\n  --namespace ai \\\n"
        "  --set servedModel=acme/big,gpu.count=2 \\\n  --set-string served_model_revision=main"
    )
    assert found(tmp_path, readme) == [
        (
            8,
            "README sets (--set) chart value gpu.count, but chart/values.yaml has no such key and no "
            "template under chart/templates reads it",
            "certain",
        ),
        (
            9,
            "README sets (--set) chart value served_model_revision, but chart/values.yaml has no such key "
            "and no template under chart/templates reads it",
            "certain",
        ),
    ]


@pytest.mark.parametrize(
    "command",
    [
        # the nearest true command: keys values.yaml has, under an empty map, a template reads, a subchart's
        "helm upgrade --install llm ./chart --set maxBatch=32 "
        "--set resources.limits.nvidia\\.com/gpu=1 --set podAnnotations.team=ml "
        "--set 'extraArgs={--trust-remote-code}' --set redis.enabled=false --set tolerations[0].key=gpu",
        # a chart from a repository, not the one beside the README
        "helm install llm acme/infer --set gpu.count=2",
        # a chart folder that is not there
        "helm install llm ./charts/infer --set gpu.count=2",
    ],
)
def test_set_keys_left_alone(tmp_path: Path, command: str) -> None:
    assert found(tmp_path, install(command)) == []


def test_a_set_key_of_a_chart_without_templates_is_likely(tmp_path: Path) -> None:
    readme = install("cd deploy\nhelm template demo ../chart --set gpu.count=2 --set maxBatch=4")
    files = {"chart/templates/deployment.yaml": "", "deploy/x": "x"}
    assert found(tmp_path, readme, files) == [
        (7, "README sets (--set) chart value gpu.count, but chart/values.yaml has no such key", "likely"),
    ]


@pytest.mark.parametrize(
    "named",
    [
        "The chart is in [deploy/helm/infer](deploy/helm/infer/values.yaml).",
        "```bash\nhelm upgrade --install llm deploy/helm/infer -n ai\n```",
    ],
)
def test_a_chart_further_down_named_by_a_link_or_an_install(tmp_path: Path, named: str) -> None:
    readme = table(
        "Chart values",
        "| Key | Default |",
        "| `maxBatch` | `16` |\n| `served_model` | `acme/small-7b` |\n",
    )
    readme = readme.replace("## Chart values", f"{named}\n\n## Chart values")
    shift = named.count("\n") + 2
    assert found(tmp_path, readme, where="deploy/helm/infer/") == [
        (
            8 + shift,
            "README documents chart value served_model, but deploy/helm/infer/values.yaml:7 names it "
            "servedModel",
            "certain",
        ),
    ]
    # not named: a chart two folders down is not the README's
    plain = table("Chart values", "| Key | Default |", "| `maxBatch` | `16` |\n| `served_model` | `x` |\n")
    assert found(tmp_path / "other", plain, where="deploy/helm/infer/") == []


def test_keys_under_words_an_application_may_use_too_are_likely(tmp_path: Path) -> None:
    """`Settings`, `Options`, `Configuration`: the table may be the application's own (its engine
    arguments), not the chart's; `Values`, `Parameters`, `chart`, `template` can only be the chart's."""
    rows = "| `maxBatch` | Batch size |\n| `served_model` | Model |\n"
    assert found(tmp_path, table("Server settings", "| Setting | Meaning |", rows)) == [
        (8, f"README documents chart value served_model, but {SERVED}", "likely"),
    ]
    assert found(tmp_path / "b", table("Chart settings", "| Setting | Meaning |", rows)) == [
        (8, f"README documents chart value served_model, but {SERVED}", "certain"),
    ]
