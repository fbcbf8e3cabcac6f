"""Makefiles: the build args their recipes pass to `docker build` (docgen/makefile.py)."""

from __future__ import annotations

import pytest

from docgen import makefile
from docgen.makefile import PassedArg, build_args, rule_targets

MAKEFILE = """\
GPU ?= sm_90
BASE := ubuntu
BASE_TAG = $(BASE):22.04
GPU ?= sm_80
STAMP = $(shell date +%s)

image: ## the image
\tdocker build \\
\t\t--build-arg GPU=$(GPU) \\
\t\t--build-arg BASE_IMAGE=${BASE_TAG} \\
\t\t--build-arg STAMP=$(STAMP) --build-arg USER=$(USER) \\
\t\t-t app .

slim:
\tdocker build -f Dockerfile.slim --build-arg GPU=sm_70 .
\techo --build-arg NOT=read
"""


def test_the_build_args_a_recipe_passes() -> None:
    assert build_args(MAKEFILE) == (
        PassedArg("GPU", "sm_90", 8, 1, "Dockerfile"),  # the first `?=` wins
        PassedArg("BASE_IMAGE", "ubuntu:22.04", 8, 3, "Dockerfile"),
        PassedArg("STAMP", None, 8, 5, "Dockerfile"),  # a function: not known
        PassedArg("USER", None, 8, None, "Dockerfile"),  # the environment
        PassedArg("GPU", "sm_70", 15, None, "Dockerfile.slim"),
    )


def test_no_recipe_no_build_args() -> None:
    assert build_args("GPU ?= sm_90\n# docker build --build-arg GPU=$(GPU) .\n") == ()


RULES = """\
IMAGE := app
BUILD ::= docker
define recipe =
hidden-rule:
endef
.PHONY: image image-cuda cuda-shell
image image-cuda: deps ; $(BUILD) build -t $(IMAGE) .
shell-cuda:image
\tnot-a-rule: here
%.tar: image
"""


def test_the_targets_rules_make() -> None:
    # `.PHONY` names no rule; a `define` body and a recipe line are not read; patterns are kept
    assert rule_targets(RULES) == frozenset({"image", "image-cuda", "shell-cuda", "%.tar"})


@pytest.mark.parametrize(
    "text",
    ["include common.mk\nall: x\n", "$(NAME)-image: x\n", "$(foreach v,$(VS),$(eval $(call rule,$(v))))\n"],
)
def test_rules_that_cannot_all_be_told(text: str) -> None:
    assert rule_targets(text) is None


def test_a_rule_named_like_a_directive() -> None:
    # `export:` is a rule making `export` (make runs it with `make export`); `export NAME` and `export`
    # alone are the directive, `override` and `else` lines too
    text = (
        ".PHONY: build export\nexport PATH := /opt/bin:$(PATH)\nexport\noverride CFLAGS += -O2\n"
        "build:\n\tdocker build -t app .\nexport: build\n\tdocker save app > app.tar\n"
        "ifeq ($(GPU),1)\nelse\nendif\n"
    )
    assert rule_targets(text) == frozenset({"build", "export"})


def test_reading_tells_recipes_from_indented_assignments() -> None:
    text = (
        "TOOL ?= docker\n"
        "ifdef EXTRA\n\tTAG = x-$(EXTRA)\nendif\n"
        "LIST := $(shell git ls-files)\n"
        "sub:\n\tcd ../lib; \\\n\t$(MAKE) all\n"
        "ifeq ($(V),1)\n\t@echo verbose\nendif\n"
        "image:\n\t$(TOOL) build -t $(TAG) .\n\t./tools/stamp.sh $$HOME\n"
    )
    read = makefile.reading(text)
    assert [(c.words[0], c.folder, c.line) for c in read.commands] == [
        ("git", None, 5),
        ("$MAKE", "../lib", 7),
        ("echo", None, 10),
        ("docker", None, 13),
        ("./tools/stamp.sh", None, 14),
    ]
    assert {"TOOL", "EXTRA", "TAG", "LIST", "MAKE", "V"} <= set(read.variables)
    assert "HOME" in read.words and not read.computed


def test_reading_includes_and_computed_names() -> None:
    read = makefile.reading(
        "-include local.mk\ninclude $(ROOT)/common.mk\nX = $($(OS)_FLAGS)\n", {"ROOT": ("..", 1)}
    )
    assert read.includes == (("local.mk", True, 1), ("../common.mk", False, 2))
    assert read.computed


def test_target_recipe_reads_the_target_and_its_prerequisites() -> None:
    text = (
        "ARCH ?= sm90\nARGS = --build-arg PY=3.12\nTAG = app-$(ARCH)\n"
        "prep:\n\t./fetch.sh\nimage: prep\n\tdocker build $(ARGS) -t $(TAG) -f docker/Dockerfile.gpu .\n"
        "other:\n\tdocker build --build-arg ARCH=$(ARCH) .\n"
    )
    recipe = makefile.target_recipe(text, "image")
    assert recipe is not None
    [build] = recipe.builds
    assert (build.line, build.dockerfile, build.unknown) == (7, "docker/Dockerfile.gpu", False)
    assert "PY" in build.words and "ARCH" not in build.words  # the tag passes nothing
    assert [c.words for c in recipe.others] == [("./fetch.sh",)]


@pytest.mark.parametrize(
    "text",
    [
        "%:\n\tdocker build .\n",  # a pattern rule only
        "image:\n\tdocker build .\nimage:\n\tdocker build -f B .\n",  # two recipes
        "image: ARCH = sm80\nimage:\n\tdocker build .\n",  # a target-specific variable
        "include more.mk\nimage:\n\tdocker build .\n",
    ],
)
def test_target_recipe_unknown(text: str) -> None:
    assert makefile.target_recipe(text, "image") is None


def test_recipe_lines_of_a_target_and_its_prerequisites() -> None:
    text = (
        "COMPOSE ?= docker compose\n\nenv-check:\n\t@test -f .env\n\n"
        "deploy: env-check network ## Deploy\n\tcd app && $(COMPOSE) up -d \\\n\t  --wait\n\n"
        "network:\n\tdocker network create shared || true\n\ntwice:\n\techo a\ntwice:\n\techo b\n"
    )
    assert makefile.recipe_lines(text, "deploy") == (
        (4, "@test -f .env"),
        (11, "docker network create shared || true"),
        (7, "cd app && $(COMPOSE) up -d  --wait"),
    )
    assert makefile.recipe_lines(text, "missing") is None
    assert makefile.recipe_lines(text, "twice") is None  # two recipes: make warns and runs the last


def test_recipe_commands_as_written() -> None:
    text = (
        "up: base ; -docker run -d \\\n\t\t--name web acme/web\nbase:\n\t@docker build -t acme/base \\\n"
        "\t  -f Dockerfile\n\t  .\n\t-rm -f stale\n"
    )
    assert makefile.recipe_commands(text, "up") == (
        ((4, "docker build -t acme/base \\"), (5, "  -f Dockerfile")),
        ((6, "  ."),),
        ((7, "-rm -f stale"),),
        ((1, " docker run -d \\"), (2, "\t--name web acme/web")),
    )
    assert makefile.recipe_commands(text, "missing") is None


# --------------------------------------------------------------------------------------------------
# Lines GNU make stops at ("missing separator")


def test_a_recipe_line_indented_with_spaces_stops_make() -> None:
    # a licence step of a scientific app's Makefile: the second recipe line came in with 8 spaces
    text = (
        "VERSION ?= 2.1\n\nsecret:\n\tmkdir -p etc/.keys\n\techo ${APP_KEY} > etc/.keys/app.txt\n"
        "        echo ${PLUGIN_KEY} > etc/.keys/plugin.txt\n\nbuild: secret\n\tdocker build -t app .\n"
    )
    assert makefile.separator_slips(text) == (
        makefile.SeparatorSlip(6, "        echo ${PLUGIN_KEY} > etc/.keys/plugin.txt", True),
    )
    # a Python tool's Makefile written by an editor that turns tabs into 4 spaces: plain words
    text = "lint:\n    ruff check src\n    mypy --strict src\n"
    assert [(s.line, s.expanded) for s in makefile.separator_slips(text)] == [(2, False), (3, False)]
    # `echo a=b` is no assignment (two words before the `=`): make stops there too
    assert [s.line for s in makefile.separator_slips("a:\n\ttrue\n    echo a=b\n")] == [3]


@pytest.mark.parametrize(
    "text",
    [
        "a:\n\techo 1 \\\n        echo 2\n",  # a recipe line a `\` continues
        "FILES = a.c \\\n        b.c\n",  # an assignment continued
        "define BANNER\n    hello world\nendef\na:\n\t@echo $(BANNER)\n",  # a define body
        "export define X\n  two words\nendef\n",
        ".RECIPEPREFIX = >\na:\n> echo 1\n",  # the recipe prefix is `>`
        "a:\n\ttrue\n  ifeq ($(X),1)\n  export Y\n  endif\n  # a comment\n",  # directives, comments
        "a:\n\ttrue\n    $(info building a)\n",  # only a call: it expands to nothing
        "a:\n\ttrue\n    FLAGS += -O2\n    b: a\n",  # an assignment, a rule
        "    docker run -v /x:/y app\n",  # a `:` makes it a rule to make
        "all:\n\ttrue\n",
    ],
)
def test_lines_make_reads(text: str) -> None:
    assert makefile.separator_slips(text) == ()


def test_a_recipe_prefix_from_a_variable_is_not_read() -> None:
    assert makefile.separator_slips(".RECIPEPREFIX := $(SPACE)\na:\n echo 1\n") == ()
    # a prefix set back to nothing is the tab again
    assert [s.line for s in makefile.separator_slips(".RECIPEPREFIX =\na:\n  echo 1\n")] == [3]


def test_the_builds_of_a_makefile_as_bake_targets() -> None:
    # a runtime chosen by a variable builds too (`$(RUNTIME) build` with `RUNTIME ?= docker`)
    text = (
        "SUITE_VERSION ?= 4.5.3\nSUITE_PATCH ?=\nRUNTIME ?= docker\n\nbuild:\n"
        "\t$(RUNTIME) build --build-arg SUITE_VERSION=${SUITE_VERSION} \\\n"
        "\t\t--build-arg SUITE_PATCH=$(SUITE_PATCH) --build-arg HOME_DIR=$(HOME_DIR) \\\n"
        "\t\t. -f Dockerfile.desktop\n"
    )
    (target,) = makefile.targets(text.encode(), "Makefile")
    assert (target.name, target.dockerfile) == ("Makefile:6", "Dockerfile.desktop")
    # an empty value is a value; one from the environment (`HOME_DIR`, no assignment) is not known
    assert dict(target.args) == {"SUITE_VERSION": "4.5.3", "SUITE_PATCH": ""}
    assert dict(target.own_args) == {"SUITE_VERSION": 1, "SUITE_PATCH": 2}
    assert makefile.targets(b"build:\n\techo docker\n", "Makefile") == ()
