"""`docgen.audit.applied_images`: an image a README builds (tags, pushes) and then deploys with `kubectl
apply|create -f`, while the containers of the manifests it applies run another image of its name (another
registry, owner or tag, or a placeholder the README never says to fill in). Traps: a manifest running the
built image, a published image the README names, a manifest the README edits with `sed`/`envsubst` or
tells the reader to edit, a template, a sidecar of another name, a manifest at a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.audit import audit
from docgen.dockerfile import parse_dockerfile
from docgen.pipeline import model_of

DOCKERFILE = 'FROM python:3.12-slim\nCOPY train.py /opt/train.py\nENTRYPOINT ["python", "/opt/train.py"]\n'


def found(tmp_path: Path, readme: str, project: Path | None = None, **files: str) -> list[str]:
    """The findings of this module for `readme` beside a Dockerfile and `files` (`__` is `/`)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    (tmp_path / "train.py").write_text("print('hi')\n")
    for name, body in files.items():
        target = tmp_path / name.replace("__", "/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body)
    (tmp_path / "README.md").write_text(readme)
    model = model_of(parse_dockerfile(DOCKERFILE, "Dockerfile"))
    return [
        f"{d.line}: {d.message} ({d.confidence})"
        for d in audit(readme, "README.md", model, directory=tmp_path, project=project)
        if "never runs the image" in d.message
    ]


JOB_README = """\
# Distributed digits

**Build the image**

The default image is `ludo/digits-dist-test:2.0`.

```shell
docker build -t ludo/digits-dist-test:2.0 .
```

**Start the training job**

```shell
kubectl create -f ./jobs/digits_job.yaml
```
"""

JOB = """\
apiVersion: "kubeflow.org/v1"
kind: "PyTorchJob"
metadata:
  name: "digits"
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
            - name: pytorch
              image: {image}
              args: ["--backend", "gloo"]
"""


def test_a_job_running_the_built_name_under_another_registry(tmp_path: Path) -> None:
    job = JOB.format(image="gcr.io/ludo-ci/digits-dist_test:2.0")
    assert found(tmp_path, JOB_README, **{"jobs__digits_job.yaml": job}) == [
        "8: README builds ludo/digits-dist-test:2.0, then `kubectl create -f ./jobs/digits_job.yaml` at line "
        "14 deploys containers that run gcr.io/ludo-ci/digits-dist_test:2.0 (jobs/digits_job.yaml:13): the "
        "workload never runs the image the README built (likely)",
    ]


def test_a_placeholder_the_readme_never_mentions(tmp_path: Path) -> None:
    job = JOB.format(image="gcr.io/<your_project>/digits_dist:latest")
    assert found(tmp_path, JOB_README, **{"jobs__digits_job.yaml": job}) == [
        "8: README builds ludo/digits-dist-test:2.0, then `kubectl create -f ./jobs/digits_job.yaml` at line "
        "14 deploys containers that run gcr.io/<your_project>/digits_dist:latest (jobs/digits_job.yaml:13), "
        "a placeholder the README never says to fill in: the workload never runs the image the README built "
        "(likely)",
    ]


def test_a_placeholder_the_readme_says_to_fill_in(tmp_path: Path) -> None:
    job = JOB.format(image="gcr.io/<your_project>/digits_dist:latest")
    readme = JOB_README.replace(
        "**Start the training job**\n",
        "**Start the training job**\n\nReplace `<your_project>` in the job file first.\n",
    )
    assert found(tmp_path, readme, **{"jobs__digits_job.yaml": job}) == []


def test_a_manifest_missing_where_applied_is_read_where_the_folder_holds_it(tmp_path: Path) -> None:
    job = JOB.format(image="gcr.io/ludo-ci/digits-dist_test:2.0")
    readme = JOB_README.replace("./jobs/digits_job.yaml", "./digits_job.yaml")
    assert found(tmp_path, readme, **{"v1beta1__digits_job.yaml": job}) == [
        "8: README builds ludo/digits-dist-test:2.0, then `kubectl create -f ./digits_job.yaml` at line 14 "
        "(no such file there; the one of its name below is v1beta1/digits_job.yaml) deploys containers that "
        "run gcr.io/ludo-ci/digits-dist_test:2.0 (v1beta1/digits_job.yaml:13): the workload never runs the "
        "image the README built (likely)",
    ]
    (tmp_path / "two").mkdir()
    assert (
        found(tmp_path / "two", readme, **{"v1beta1__digits_job.yaml": job, "v1__digits_job.yaml": job}) == []
    )


WEB_README = """\
# Shopfront

## Deploy

```bash
docker build -t shopfront:dev .
docker tag shopfront:dev registry.example.com/team/shopfront:dev
docker push registry.example.com/team/shopfront:dev
kubectl apply -f k8s/
```
"""

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shopfront
spec:
  template:
    spec:
      initContainers:
        - name: migrate
          image: {image}
          command: ["python", "migrate.py"]
      containers:
        - name: web
          image: {image}
        - name: cache
          image: redis:7.2
---
apiVersion: v1
kind: Service
metadata:
  name: shopfront
"""


def test_a_deployment_folder_running_another_tag_of_the_pushed_image(tmp_path: Path) -> None:
    deployment = DEPLOYMENT.format(image="registry.example.com/team/shopfront:v2")
    assert found(tmp_path, WEB_README, **{"k8s__deployment.yaml": deployment}) == [
        "6: README builds shopfront:dev, then `kubectl apply -f k8s/` at line 9 deploys containers that run "
        "registry.example.com/team/shopfront:v2 (k8s/deployment.yaml:10): the workload never runs the image "
        "the README built (likely)",
    ]
    prompted = WEB_README.replace("\ndocker ", "\n$ docker ").replace("kubectl apply", "$ kubectl apply")
    (tmp_path / "prompted").mkdir()
    assert len(found(tmp_path / "prompted", prompted, **{"k8s__deployment.yaml": deployment})) == 1


@pytest.mark.parametrize(
    ("readme", "image"),
    [
        (WEB_README, "registry.example.com/team/shopfront:dev"),  # the pushed image
        (WEB_README.replace("shopfront:dev .", "shopfront .").replace(":dev", ""), "shopfront:latest"),
        (WEB_README, "docker.io/library/postgres:16"),  # another name: not the built image
        # a published image the README offers
        (
            WEB_README + "\nOr skip the build: the release image is `ghcr.io/team/shopfront:1.4`.\n",
            "ghcr.io/team/shopfront:1.4",
        ),
        # the README rewrites the manifest, or tells the reader to
        (
            WEB_README.replace(
                "kubectl apply", 'sed -i "s|image: .*|image: $IMG|" k8s/deployment.yaml\nkubectl apply'
            ),
            "registry.example.com/team/shopfront:v2",
        ),
        (
            WEB_README.replace(
                "## Deploy\n", "## Deploy\n\nEdit the image in `k8s/deployment.yaml` to the one you push.\n"
            ),
            "registry.example.com/team/shopfront:v2",
        ),
        (WEB_README, "${IMAGE}"),  # filled in by envsubst
        (WEB_README, "{{ .Values.image }}"),  # a template
        (
            WEB_README.replace(
                "kubectl apply -f k8s/", "kubectl apply -f https://example.com/shopfront.yaml"
            ),
            "x/shopfront:v2",
        ),
        (WEB_README.replace("kubectl apply -f k8s/", "cd ops && kubectl apply -f k8s/"), "x/shopfront:v2"),
    ],
)
def test_traps(tmp_path: Path, readme: str, image: str) -> None:
    assert found(tmp_path, readme, **{"k8s__deployment.yaml": DEPLOYMENT.format(image=image)}) == []


def test_nothing_built_before_the_apply(tmp_path: Path) -> None:
    readme = "# Shopfront\n\n```bash\nkubectl apply -f k8s/\ndocker build -t shopfront:dev .\n```\n"
    deployment = DEPLOYMENT.format(image="registry.example.com/team/shopfront:v2")
    assert found(tmp_path, readme, **{"k8s__deployment.yaml": deployment}) == []


def test_a_cd_into_the_clone_of_the_repository_reads_from_its_top(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    readme = (
        "# Digits\n\n```bash\ngit clone https://github.com/ludo/digits.git\ncd digits\n"
        "docker build -t ludo/digits-dist-test:2.0 examples/digits\n"
        "kubectl create -f examples/digits/jobs/digits_job.yaml\n```\n"
    )
    job = JOB.format(image="gcr.io/ludo-ci/digits-dist_test:2.0")
    assert [
        f.split(": README", 1)[0]
        for f in found(tmp_path / "examples" / "digits", readme, tmp_path, **{"jobs__digits_job.yaml": job})
    ] == ["6"]
    other = readme.replace("cd digits", "cd ops")
    assert found(tmp_path / "examples" / "digits", other, tmp_path, **{"jobs__digits_job.yaml": job}) == []
