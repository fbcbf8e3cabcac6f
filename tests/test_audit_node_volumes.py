"""`docgen audit`: a README saying its Kubernetes deployment uses persistent volume claims while the
manifests it applies mount only node volumes (docgen/audit/node_volumes.py).

Each rule: a planted drift next to the nearest true statement (a trap).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from docgen.analysis import build_model
from docgen.audit import audit

DOCKERFILE = 'FROM python:3.11-slim\nWORKDIR /app\nCOPY . .\nCMD ["python", "serve.py"]\n'

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
spec:
  template:
    spec:
      containers:
      - name: embedder
        image: embedder:v2
        volumeMounts:
        - name: weights
          mountPath: /app/weights
      volumes:
      - name: weights
        hostPath:
          path: /mnt/weights
"""
"""Modelled on a single-node inference demo that mounts the host's model folder."""

SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: embedder\nspec:\n  ports:\n  - port: 80\n"

README = """\
# Embedding service on Kubernetes

Model weights are kept on a persistent volume claim, so pods can be rescheduled freely.

```bash
docker build -t embedder:v2 .
kubectl apply -f k8s/deployment.yaml
kubectl apply -f k8s/service.yaml
```
"""

CLAIM = """\
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: weights
spec:
  accessModes: [ReadWriteOnce]
"""

STATEFUL = """\
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: queue
spec:
  template:
    spec:
      containers:
      - name: queue
        image: queue:1
      volumes:
      - name: scratch
        emptyDir: {}
  volumeClaimTemplates:
  - metadata:
      name: data
"""
"""Modelled on a message-queue chart rendered to plain manifests: scratch on the node, data on claims."""


def claims(root: Path, readme: str, files: dict[str, str]) -> list[tuple[int, str, str]]:
    make_tree(root, {"Dockerfile": DOCKERFILE, "README.md": readme, **files})
    model = build_model(root / "Dockerfile", "Dockerfile")
    return [
        (d.line, d.message, d.confidence)
        for d in audit(readme, "README.md", model, {}, root, root)
        if "persistent volume claims" in d.message
    ]


def test_a_claim_said_and_only_a_host_path_mounted(tmp_path: Path) -> None:
    files = {"k8s/deployment.yaml": DEPLOYMENT, "k8s/service.yaml": SERVICE}
    assert claims(tmp_path, README, files) == [
        (
            3,
            "README says the deployment uses persistent volume claims, but no manifest it applies "
            "(k8s/deployment.yaml, k8s/service.yaml) mounts or defines one: k8s/deployment.yaml:16 mounts a "
            "hostPath volume on the node",
            "likely",
        )
    ]


def test_a_folder_applied_with_a_scratch_volume(tmp_path: Path) -> None:
    readme = README.replace(
        "kubectl apply -f k8s/deployment.yaml\nkubectl apply -f k8s/service.yaml", "kubectl apply -f k8s/"
    )
    emptied = DEPLOYMENT.replace("hostPath:\n          path: /mnt/weights", "emptyDir: {}")
    found = claims(tmp_path, readme.replace("persistent volume claim", "PVC"), {"k8s/app.yaml": emptied})
    assert [(line, message.split(": ", 1)[1]) for line, message, _ in found] == [
        (3, "k8s/app.yaml:16 mounts an emptyDir volume on the node")
    ]


@pytest.mark.parametrize(
    ("readme", "files"),
    [
        # a claim defined next to the deployment (its volume bound elsewhere)
        (README, {"k8s/deployment.yaml": DEPLOYMENT + CLAIM, "k8s/service.yaml": SERVICE}),
        # claim templates of a StatefulSet
        (README, {"k8s/deployment.yaml": STATEFUL, "k8s/service.yaml": SERVICE}),
        # a Helm template may add one
        (
            README,
            {"k8s/deployment.yaml": DEPLOYMENT + "  # {{ .Values.storage }}\n", "k8s/service.yaml": SERVICE},
        ),
        # a plan, a suggestion, a negation
        (
            README.replace("Model weights are kept on", "For production, consider"),
            {"k8s/deployment.yaml": DEPLOYMENT, "k8s/service.yaml": SERVICE},
        ),
        (
            README.replace(
                "Model weights are kept on a persistent", "Weights use a hostPath, not a persistent"
            ),
            {"k8s/deployment.yaml": DEPLOYMENT, "k8s/service.yaml": SERVICE},
        ),
        (
            README.replace("Model weights are kept", "## Roadmap\n\n- Weights kept"),
            {"k8s/deployment.yaml": DEPLOYMENT, "k8s/service.yaml": SERVICE},
        ),
        # a manifest the README does not apply, a kustomization, a missing file
        (README.replace("kubectl apply", "kubectl get"), {"k8s/deployment.yaml": DEPLOYMENT}),
        (README + "\n```bash\nkubectl apply -k overlays/prod\n```\n", {"k8s/deployment.yaml": DEPLOYMENT}),
        (README, {"k8s/deployment.yaml": DEPLOYMENT}),
        # only a service: no workload volumes read
        (README.replace("kubectl apply -f k8s/deployment.yaml\n", ""), {"k8s/service.yaml": SERVICE}),
    ],
)
def test_claims_the_manifests_hold_or_that_claim_nothing(
    tmp_path: Path, readme: str, files: dict[str, str]
) -> None:
    assert claims(tmp_path, readme, files) == []
