"""Audit a hand-written README: claims outside docgen blocks that contradict the Dockerfile.

Most projects start from a README written by hand. Before it adopts markers, `audit` lists what in it is
already stale, as `Diagnostic`s (`README.md:42: README says Megatron-core 0.16.0 but Dockerfile:230 says
0.18.0`):

- a build arg the README documents (a build-argument table, `--build-arg NAME`, a backticked
  `UPPER_SNAKE` name in a sentence about build args or in a list under a build-args heading, a one-word
  name of a `NAME=VALUE` list that can only be build args, a variable the sentence over a plain
  `docker build` tells to set that nothing of the build names: `replace the value of `GITHUB_TOKEN``)
  that the Dockerfile does not declare, nor one below the README's folder that is not audited (another
  image's arg; not one of tests, examples or vendored code the README does not name); ENV names,
  BuildKit's predefined args and placeholders are not claims;
- a build arg documented under a name a slip away from the one an ARG declares (`INC_VERSION` for
  `ARG INC_VER`, a row `MKL Version` for `ARG MKL_VER`), in a build-argument table or a table of
  variables most of whose names are build args; a value given to an ARG nothing reads while a RUN
  reads a name a slip away from it (no effect); a default compared with the value a compose or bake
  file passes under a name no ARG declares;
- a build arg a user can pass that the README's build-argument table (when it has one) leaves out,
  unless its default only joins args the table lists (`ARG BASE=${BASE_NAME}:${BASE_VERSION}`), in a
  table that is not mostly another image's (one below the README's folder) nor a selection (it leaves
  out more args than it names, and does not say it holds them all);
- a default in that table (Markdown or HTML), or in a list item (`- `CUDA_VERSION` set to `12.4.0``)
  or a sentence (`` `JOBS` defaults to `4` ``), that differs from the effective default, and a build arg
  the README says is required (`has no default`, `must be explicitly specified`) while its ARG has one;
- a version next to a component (a version table row, a table with a column per component, a
  shields.io badge, an inline `pkg==1.2.3` / `pkg>=1.2` pin, or prose such as `PyTorch 2.9.1`) that
  disagrees with every pin of it in the Dockerfile, base image tags included, and a Python or GCC
  release said exactly that the distribution's `python3` or `gcc` package the image installs is not;
- a package a fenced `pkg==version` list names that no image installs, when each image is built on a
  base a Dockerfile of the family builds (or is that base);
- a base image stated in words (`Defaults to `python:3-slim-bullseye` base image`) whose version or
  distribution differs from the one FROM uses, and one a label states (`Base image: nvidia/cuda:…`,
  `Based on: nvidia/cuda:…`, a `Base image` row, a distribution `Debian Bullseye based`) of a
  repository, variant or distribution no stage starts from (`base_labels`);
- a feature the README says the image is built with (`- Hardware acceleration: OpenGL, Qt5`, `with
  CUDA support`) that a switch of its own build turns off (`-D WITH_QT=OFF`, `--disable-cuda`,
  `USE_X=0`) and nothing of it turns on, or a CPU feature it says the image requires that the build
  compiles without (`-mno-avx2`) (`switches`); a component a sentence or a badge promises
  whose only install is commented out (`disabled`); commented lines a README says a Dockerfile holds
  to uncomment, for paths or packages no line of it names (`commented_lines`);
- a component said to be absent (`TensorRT (Not Installed)`) that the image built installs, or said
  to be included (`The image includes TensorRT`, an item of a list under `## Installs`) that nothing
  the image's built stages run installs (or that one of them uninstalls) and that its base is known not
  to carry (`base_contents`: a plain OS, CUDA without cuDNN, NGC's PyTorch without DeepSpeed);
  Python, or its scientific libraries, listed in an image that installs none on a base that ships
  none (`listed_python`: `nvidia/cuda` on Ubuntu); a path of the system Python with a version that is
  not the image's Python (`/usr/local/lib/python3.6/dist-packages/TTS` where the Dockerfile writes
  `…/python3.8/…`: `python_paths`);
- an item listed under one image of several (nested under a link to its Dockerfile, or in a section
  about it) that it does not install while another image of the README installs it itself;
- a health check, an exposed port, the user the image runs as, its working directory or what it
  starts, stated in prose, that the image built's HEALTHCHECK, EXPOSE, USER, WORKDIR, ENTRYPOINT or CMD
  contradicts (`settings`); a port table's container port for a service (`| 3000 | 3001 | Aphrodite
  Engine |`) that the start script named after it copied in (`--port 5001`) and the nginx
  configuration copied over the base's serve it on nowhere (`ports`);
- an architecture the README says the image is for (`Platform | NVIDIA Jetson AGX Orin`, `runs on
  arm64`, `for x86_64`) that its base (an L4T image is arm64 only) or a file its RUNs install
  (`…_arm64.deb`, `torch==1.5.0+cu101`) rules out (`architectures`);
- a numbered stage title (`Stage 4: `pre-flight``) naming a stage the Dockerfile has not;
- a list of the GPU targets the image is built for that differs from the target build arg's default
  (`certain` when its introduction says the image is compiled for it and it is that default's list);
- a link to a file of the repository that does not exist, a licence file a sentence names (`See
  LICENSE file for details`) that the repository has under no name, a `-f` of any name (`-f
  Docker.rocm`) that is not there, a script run after a `git clone` of this very repository and a `cd`
  into it that its root does not hold (a command, or a sentence naming a folder the checkout has
  nowhere), and a path in code a slip away from a file
  that does (`build.docker.sh` for `build_docker.sh`; `certain` when only case, separators or a
  suffix written the other way tell them apart: `docker-compose.yml` for `.yaml`), a script a command
  runs (`python3 build-docker.py`) beside one file of its name but for case and separators
  (`build_docker.py`, `moved_scripts`), when the README's folder is given; a file a
  setup step reads (`cp config.json.example config.json`, `source env.sh`, `python tools/x.py`) that
  the repository holds nowhere (`setup_files`); a `-f` whose name holds a stray control character
  (`rocm^Cocblas.ub22.Dockerfile`), with the Dockerfile it spoils;
- a path in the image the README tells the user to use (`cd /opt/hpc-env`) that the image does not
  have, next to one of a near name the Dockerfile makes (`/opt/env-dev`), a Singularity `--pwd` into a
  folder the image lacks (it starts elsewhere: `work_dirs`), and a build command whose
  folder is a version placeholder (`cd gpu/x.y.z && docker build .`) when the newest release folder
  holds no Dockerfile there, when the README's folder is given.
- an environment variable the README documents as a setting of the container (a table or list under
  an environment-variables heading, `docker run -e NAME=…`) that no ENV sets while the Dockerfile
  reads it only as a build arg, or that the entrypoint script the image starts sets again before
  reading it; a variable a sentence tells to set (`` Edit the `PYTORCH_INDEX` environment variable ``)
  that a RUN reads while no ARG or ENV declares it (`--index-url $PYTORCH_INDEX`: nothing set reaches
  the build); a `docker run --user NAME` no user the image makes answers; the path of the script the
  README says the container starts when its COPY puts it elsewhere (`run_time`); a command a
  `docker run` passes after the image, or a compose `command:` a sentence says to edit, that the
  image's ENTRYPOINT throws away (shell form, `sh -c`, or a copied script that never reads its
  arguments) (`overrides`);
- PyTorch said to come from the nightly channel while the image installs torch from a release index
  of download.pytorch.org (`/whl/xpu`) or starts, installing none, from a release image of PyTorch
  (`rocm/pytorch:…_pytorch_release_2.3.0`), or stable while from the nightly index or image (`methods`);
- an installer a sentence says the image includes (`The container includes uv package manager`) that
  nothing of the image installs, on a base known to come without it (`held_tools`);
- an environment variable the README says is set already (`By default, the following options are
  set:`, `NAME is already set in the environment`) that no ENV, compose service, file beside the README
  or command of it sets (`preset_env`);
- a variable a table of the container's variables (`| Variable |` under `## Configuration` too) lists
  that the entrypoint script never reads while it reads the others, an env template naming it aside
  (`unread_env`); a value a list of the container's variables gives that a script the README runs passes
  otherwise with its `docker run -e` (`listed_env.run_script_env`);
- an environment variable the README names (a code span, `-e NAME`) that nothing of the project knows,
  one slip from exactly one name the image, a file beside it or a GPU runtime knows
  (`NVIDIA_DRIVER_CAPABILITES` for `NVIDIA_DRIVER_CAPABILITIES`) (`env_slips`);
- names a command or an example shares with the files beside the README: a `docker exec` container
  no compose file names, a `docker run` image its section does not build (or a tag of it the README
  builds under another tag only), a compose example whose
  service the compose file beside it builds otherwise (`names`).
- the name a build command gives the image that is its own base's (`docker build -t owner/base .`
  over `FROM owner/base:latest`), a jetson-containers tag (`jetson-pytorch:2.4-r36.3.0`) whose L4T
  release is not the base's or whose version is not the pin of the component its name names, and a
  build of a folder one part away from the README's own (a README copied from a sibling) (`image_tags`);
- a well-known application a sentence says will be available at an address (`ComfyUI will be
  available at http://localhost`) that no image installs and no file of the repository names: a
  sentence copied from a sibling project (`served_apps`);
- a build the README runs (its own `docker build`, or one of a script it runs) that does not pass an ARG
  with no default that a FROM needs (`FROM ${base_image}` names no image) or a RUN fails without
  (`useradd -m ${USER}`), a value passed for an arg read only in a cmake option of a GPU backend the
  build does not select, and a version passed for a FROM now written out with another (`builds`);
- a command that cannot run by its own grammar: a `docker build` with no build context, an option
  `docker build`, `run` or `compose` does not have, a slip from one it has (`grammar`), and a
  `make TARGET` no rule of the Makefile makes (`make_targets`), a variable passed to `make` that no
  makefile of the build reads while one a slip away is (`make_vars`), a build arg set for `make TARGET`
  (an export before it) that the target's `docker build` never passes (`make_env`), a pulled image
  that the make target or script run next never runs, its `docker run` running another (`pulled_runs`),
  and a compose
  command that builds from a context, Dockerfile or stage that is not there (`compose_builds`), or
  that runs after a `cd` into a folder with no compose file in it or above it (`entered_compose`), and
  a file a command names by a relative path after a `cd` into a folder of the project that does not hold
  it, while the README's folder or the root does (`entered_files`).
- an image tag a compose service gives the image it builds whose `NAMEVERSION` part (`cuda11.0.3`)
  spells another value than the build arg of that name the service passes, on the README lines that
  repeat the tag (`tag_args`).
- an image tag a compose service gives the image it builds that names one hardware variant (`cuda`,
  `rocm`, `nocuda`, `cpu`, `gpu`, `xpu`) while the Dockerfile it builds is named for, or built on, another,
  on the README line that names the image or builds it (`variant_tags`).
- the values of a Helm chart beside the README that a table, a list or a `helm install --set`
  documents: a key its values.yaml spells otherwise or lacks while no template reads it, a default
  that differs (`chart_values`).

Changelog and release-notes sections tell the past and are skipped; so is text about the host, older
images, another build tool's arguments or the keys of a build script's configuration files (`aside`,
`set_aside`). A README about a family of images
is audited against all of them: each section against the image it says it is about (a build command's
`-f`, a Dockerfile or its variant in the heading, a link, a base image; for a `-f` to a Dockerfile that
is gone, the one it most likely means now, or none), the rest against every one, or, when the README
names one Dockerfile and no other, against that one and those building its bases (`own_image`).
Each finding carries a confidence: `certain` when read from a table cell, a pin, a build command or a
file reference, `likely` when read from prose.

The modules of this package, each importing only those before it: `aside` (text that is not a claim),
`versions`, `paths` and `coverage` (names, versions, Dockerfile paths compared; the build args a
family name such as `SPACK_*` covers), `version_facts` (versions an ENV, a wheel's CUDA or an apt
package states; the Python and GCC the distribution's default packages give; a later pin replacing a
base tag's version), `wording` (the words every rule
reads), `auditor` (a claim → a finding, with its confidence), `commands` and `cells` (build commands,
table cells), then the claim readers — `contents`, `builder_installs`, `left_over`, `conda_python`,
`listed_python`,
`cloned_repos`, `arg_entries`,
`arg_lists`, `every_image`,
`stage_count`, `promised`,
`python_paths`, `wheel_names`, `image_tags`, `disabled`, `commented_lines`, `switches`, `references`,
`missing`, `names`,
`grammar`, `continuations`, `config_keys`, `swapped_headings`, `unentered_mounts` (after `run_args`),
`builder_paths` (after `image_paths`),
`platforms`,
`architectures`, `targets`,
`settings`, `latest`, `floating_pins`, `pinned_claims`, `published_tags`, `built_names`, `line_refs`,
`compose_claims`, `compose_services`, `compose_urls`, `bind_devices`, `file_lists`, `lost_folders`,
`clone_folders`, `clone_walks`, `unmounted_scripts`, `last_words`, `broken_runs`,
`sh_scripts`, `unpublished_ports`, `case_slips`,
`script_args`, `script_builds`, `script_compose`, `script_usage`, `help_copies`, `cuda_wheels`,
`mount_claims`, `jupyter_tokens`,
`script_mounts`,
`make_args`, `make_vars`, `make_env`, `pulled_runs`, `make_targets`, `fixed_defaults` (after `idle`),
`compose_builds`, `entered_compose`, `tag_args`, `variant_tags`, `ports`,
`env_defaults`, `exec_vars` (after `run_args`), `said_values`, `mpi_root` (after `run_args`), `user_names`,
`branch_refs`, `env_blocks`,
`install_dirs`, `base_claims`,
`gpu_models`, `version_lists`, `restated`, `plain_cuda`, `reinstalled_torch`,
`commits`, `jetpack_rows`, `prose`,
`sections` (which image a part is about), `members` (which image a sentence is about),
`builds`, `buildkit_features`, `image_paths`, `moved_clones`, `mount_targets`, `launch_files`,
`server_modules`, `served_apps`, `routed_ports`, `run_urls`,
`ros_variants`,
`release_vars`, `included_paths`, `held_tools` (after `methods`),
`placeholders`,
`mounts`, `tables`, `paragraphs`, `base_labels`, `cuda_flavours`, `fences`, `excerpts` (after `copies`),
`build_flags`,
`environments`,
`keyed`, `linked_rows`, `env_prefixes`,
`script_images`, `owner_images`,
`script_vars`, `env_homes`, `chart_values`, `preset_env`, `setup_files`, `run_time`, `overrides` — and
`set_aside`,
then `family_defaults`;
`own_image` tells which images a README naming one Dockerfile of several is about; `audit()` here runs
them.
docs/architecture.md lists what each holds.

Everything here is a pure function over strings and the model. The text is read once, line by line;
every regular expression runs on one line, a table cell or a bounded window, and none can backtrack
over user text (each repeat is followed by text it cannot match).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import ParamSpec

from docgen import findings
from docgen.audit import memo
from docgen.audit.applied_images import unrun_builds
from docgen.audit.architectures import architecture_claims
from docgen.audit.arg_entries import arg_entry_claims, ref_sources
from docgen.audit.arg_kinds import env_built_args, env_said_args
from docgen.audit.arg_lists import arg_list_claims, build_arg_lists
from docgen.audit.aside import PAST, is_host_heading, is_other_recipe_heading, without_past_columns
from docgen.audit.audit_facts import AuditFacts
from docgen.audit.auditor import CERTAIN, LIKELY, Auditor, also_at
from docgen.audit.badged_images import badged_images
from docgen.audit.bakes import bake_contexts, bake_dockerfiles, bake_targets, bake_unpinned
from docgen.audit.base_claims import base_claims
from docgen.audit.base_labels import base_labels
from docgen.audit.bind_devices import bind_devices
from docgen.audit.branch_refs import branch_refs
from docgen.audit.broken_runs import broken_runs, placeholder_bases, unreadable_builds
from docgen.audit.build_flags import build_flag_claims
from docgen.audit.builder_installs import builder_installs
from docgen.audit.builder_paths import builder_paths, left_behind, target_clones
from docgen.audit.buildkit_features import buildkit_features
from docgen.audit.builds import (
    dead_targets,
    denied_args,
    inert_passed,
    placeholder_builds,
    script_unpassed,
    stages_shown,
    target_columns,
    titled_stages,
    unpassed_required,
    written_bases,
)
from docgen.audit.built_names import named_builds, tagged_builds
from docgen.audit.case_slips import case_slips, unnamed_supplies
from docgen.audit.chart_values import chart_values
from docgen.audit.ci_args import ci_arg_values, ci_platform_claims
from docgen.audit.ci_claims import ci_claims
from docgen.audit.clone_builds import clone_builds
from docgen.audit.clone_folders import clone_folders, clone_slips
from docgen.audit.clone_misses import clone_misses
from docgen.audit.clone_scripts import clone_scripts
from docgen.audit.clone_walks import clone_walks
from docgen.audit.cloned_repos import cloned_repos, forked_upstream, stated_sources
from docgen.audit.cmd_files import missing_cmd_files, unfilled_cmd_paths
from docgen.audit.codenames import codename_claims
from docgen.audit.command_slips import (
    escaped_substitutions,
    slipped_commands,
    spaced_assignments,
    unjoined_lines,
)
from docgen.audit.command_values import command_values, help_commands
from docgen.audit.commented_lines import commented_file_claims, commented_lines_claims, model_step_claims
from docgen.audit.commits import commit_claims
from docgen.audit.compose_builds import (
    compose_builds,
    doubled_images,
    retagged_runs,
    unbuilt_images,
    unused_builds,
)
from docgen.audit.compose_claims import compose_settings
from docgen.audit.compose_loads import compose_loads, unbuilt_claims
from docgen.audit.compose_paths import (
    compose_paths,
    compose_shapes,
    run_paths,
    unbuilt_extensions,
    unmade_mounts,
)
from docgen.audit.compose_ports import compose_ports, port_clashes
from docgen.audit.compose_services import compose_services
from docgen.audit.compose_urls import (
    compose_urls,
    network_urls,
    picked_ports,
    run_requests,
    unpublished_requests,
)
from docgen.audit.compose_variables import compose_variables
from docgen.audit.conda_python import conda_python
from docgen.audit.config_keys import config_keys, nested_keys
from docgen.audit.container_args import (
    container_script_args,
    entry_script_args,
    project_script_args,
    unentered_script_args,
    unplaced_script_options,
)
from docgen.audit.container_blocks import container_lines
from docgen.audit.container_scripts import (
    misplaced_container_scripts,
    uncopied_container_scripts,
    unsuffixed_container_scripts,
)
from docgen.audit.containers import container_names
from docgen.audit.content_rows import content_row_claims
from docgen.audit.contents import image_lists, left_out_claims, library_lists, listed_contents
from docgen.audit.continuations import (
    blank_continuations,
    broken_continuations,
    joined_commands,
    missing_continuations,
    powershell_continuations,
)
from docgen.audit.copies import every_base, pasted_copies, plain_copies
from docgen.audit.cpu_only import cpu_claims, gpu_claims, gpu_runs, swapped_variants
from docgen.audit.cuda_flavours import flavour_claims
from docgen.audit.cuda_wheels import fixed_wheels, said_indexes
from docgen.audit.curl_uploads import curl_uploads
from docgen.audit.default_bounds import default_bounds, manifest_bounds
from docgen.audit.dependency_rows import dependency_rows
from docgen.audit.described_copies import described_copies, unheld_copies
from docgen.audit.devcontainers import gpu_devcontainer, quoted_settings
from docgen.audit.disabled import (
    disabled_downloads,
    disabled_installs,
    disabled_promises,
    disabled_sources,
)
from docgen.audit.distro_args import distro_args
from docgen.audit.docker_cli import docker_cli
from docgen.audit.downloaded_copies import downloaded_copies
from docgen.audit.drivers import driver_claims
from docgen.audit.dropped import dropped_stages, title_components
from docgen.audit.edited_configs import edited_configs
from docgen.audit.entered_builds import entered_builds, prose_builds
from docgen.audit.entered_compose import entered_compose, placed_compose, placed_makes, unentered_compose
from docgen.audit.entered_files import entered_files
from docgen.audit.entry_modes import default_modes, exiting_starts, unknown_programs
from docgen.audit.entry_options import entry_options, run_script_options
from docgen.audit.env_blocks import env_blocks
from docgen.audit.env_defaults import env_defaults, unprovided_defaults
from docgen.audit.env_homes import env_homes
from docgen.audit.env_prefixes import forwarded_prefixes, overridden_prefixes
from docgen.audit.env_slips import env_slips
from docgen.audit.environments import spack_versions
from docgen.audit.every_image import every_image_claims
from docgen.audit.example_copies import example_copies
from docgen.audit.excerpts import excerpts, indented_blocks
from docgen.audit.exec_vars import exec_form_env, single_quoted_env
from docgen.audit.exported import exported_unread, substituted_names
from docgen.audit.family_defaults import family_defaults
from docgen.audit.fences import (
    assignment_block,
    audit_fence,
    beside_own_runs,
    described_block,
    image_build_block,
    listed_not_installed,
    listed_versions,
    made_references,
)
from docgen.audit.file_lists import listed_absent
from docgen.audit.fixed_defaults import fixed_defaults
from docgen.audit.floating_pins import floating_pins, pins_never_named
from docgen.audit.fresh_contexts import fresh_contexts
from docgen.audit.globbed_scripts import globbed_scripts
from docgen.audit.gpu_compose import gpu_less_compose, gpu_only_compose
from docgen.audit.gpu_models import gpu_floor_claims, gpu_model_claims, gpu_support_claims
from docgen.audit.gpu_scripts import gpu_less_scripts
from docgen.audit.grammar import command_grammar
from docgen.audit.health_ports import health_ports, plain_health_checks, unserved_checks
from docgen.audit.held_tools import held_tool_claims
from docgen.audit.help_copies import help_copies
from docgen.audit.hidden_paths import hidden_paths
from docgen.audit.home_checkouts import home_checkout_paths
from docgen.audit.idle import guarded_args, idle_args, lost_args, partly_idle_args
from docgen.audit.ignored_places import ignored_places
from docgen.audit.image_paths import image_paths
from docgen.audit.image_tags import (
    copied_contexts,
    crossed_contexts,
    download_tags,
    image_tag_claims,
    said_contexts,
)
from docgen.audit.imageless_runs import imageless_runs, optioned_runs
from docgen.audit.included_paths import included_paths
from docgen.audit.install_dirs import install_dirs
from docgen.audit.jetpack_rows import jetpack_rows
from docgen.audit.jupyter_tokens import jupyter_tokens, unlaunched_jupyter, unstarted_jupyter
from docgen.audit.keyed import keyed_entries
from docgen.audit.last_words import last_word_cds
from docgen.audit.latest import latest_args, latest_claims
from docgen.audit.launch_files import missing_launch_files
from docgen.audit.left_over import left_over_items
from docgen.audit.line_refs import line_references
from docgen.audit.linked_rows import linked_rows, without_lines
from docgen.audit.linked_versions import linked_release_claims
from docgen.audit.listed_components import listed_components
from docgen.audit.listed_env import listed_env, run_script_env, unset_started_vars
from docgen.audit.listed_python import listed_python
from docgen.audit.local_bases import local_bases
from docgen.audit.log_paths import log_paths
from docgen.audit.loopback_binds import loopback_binds
from docgen.audit.lost_folders import lost_folders
from docgen.audit.main_env import main_only_env
from docgen.audit.make_args import make_defaults
from docgen.audit.make_builds import make_builds, unflagged_recipe_args
from docgen.audit.make_env import make_env
from docgen.audit.make_targets import unmade_targets, unread_makefiles
from docgen.audit.make_vars import make_vars
from docgen.audit.mesh_hosts import mesh_hosts
from docgen.audit.methods import (
    built_claims,
    channel_claims,
    distribution_claims,
    prebuilt_claims,
    source_link_claims,
    tool_claims,
)
from docgen.audit.missing import (
    listed_files,
    missing_links,
    missing_own_files,
    misspelt_paths,
    named_licenses,
    pointed_folders,
)
from docgen.audit.mount_claims import (
    here_mount_claims,
    home_mount_claims,
    mount_claims,
    source_mount_claims,
)
from docgen.audit.mount_targets import near_mount_targets, restated_mounts
from docgen.audit.mounts import doubled_paths, idle_mounts, mounted_code, mounted_scripts, top_mount_paths
from docgen.audit.moved_clones import moved_clones
from docgen.audit.moved_data import moved_data
from docgen.audit.moved_scripts import moved_scripts
from docgen.audit.mpi_root import mpi_as_root
from docgen.audit.names import name_misses
from docgen.audit.near_images import near_images
from docgen.audit.node_volumes import unclaimed_volumes
from docgen.audit.overrides import discarded_commands
from docgen.audit.own_image import readme_image
from docgen.audit.own_repo import repository_root
from docgen.audit.owner_images import (
    build_texts,
    make_renamed_runs,
    moved_images,
    other_owner_images,
    pulled_latest,
    renamed_images,
    run_owner_images,
    twin_owner_runs,
    workflow_texts,
)
from docgen.audit.page_builds import other_builds, undescribed_builds
from docgen.audit.paragraphs import audit_paragraph, set_for_build
from docgen.audit.paths import variant
from docgen.audit.pinned_claims import pinned_claims, provided_locks
from docgen.audit.piped_scripts import piped_scripts
from docgen.audit.placeholders import placeholder_folders
from docgen.audit.plain_cuda import plain_cuda
from docgen.audit.platforms import build_platforms
from docgen.audit.port_vars import compose_start_ports, moved_ports, port_var_claims
from docgen.audit.ports import port_rows, published_ports
from docgen.audit.preset_env import preset_env
from docgen.audit.profile_entries import profile_entry_claims
from docgen.audit.promised import promised_variants
from docgen.audit.prose import audit_text
from docgen.audit.prose_scripts import absent_prose_scripts, missing_prose_scripts
from docgen.audit.provides import provided_claims
from docgen.audit.published_tags import published_tags, pushed_names, version_prefixes
from docgen.audit.pulled_runs import built_never_run, committed_unrun, pulled_runs, pulled_slips
from docgen.audit.python_paths import python_paths
from docgen.audit.recipe_bases import recipe_bases
from docgen.audit.recipe_cds import recipe_cds
from docgen.audit.references import (
    builds_here,
    context_misses,
    dead_code_names,
    dead_finding,
    dead_references,
    default_file_builds,
    folder_builds,
    guessed_builds,
    in_checkout,
    misnamed_links,
    missing_scripts,
    project_top,
    set_for_scripts,
    unlisted_names,
)
from docgen.audit.rehomed_mounts import mapped_slips, rehomed_mounts, volume_elsewhere
from docgen.audit.reinstalled_torch import reinstalled_torch
from docgen.audit.release_vars import release_vars
from docgen.audit.removal_order import removed_in_use
from docgen.audit.request_routes import request_routes, root_sockets
from docgen.audit.response_keys import response_keys
from docgen.audit.restated import restated_versions
from docgen.audit.ros_variants import ros_distro_claims, ros_distro_paths, ros_variants
from docgen.audit.routed_ports import routed_ports
from docgen.audit.run_args import (
    alternative_pulls,
    doubled_programs,
    dropped_namespaces,
    empty_commands,
    idle_shells,
    misplaced_options,
    other_programs,
    renamed_pulls,
    run_args,
    shell_programs,
)
from docgen.audit.run_time import runtime_claims
from docgen.audit.run_urls import run_urls
from docgen.audit.runtime_bases import runtime_bases
from docgen.audit.said_values import said_values
from docgen.audit.saved_images import loaded_tags, saved_images
from docgen.audit.script_args import (
    braced_values,
    ignored_arguments,
    option_lists,
    positional_options,
    prose_options,
    rejected_arguments,
    rejected_options,
    undeclared_options,
    unknown_first_words,
    unused_arguments,
)
from docgen.audit.script_artefacts import script_artefacts
from docgen.audit.script_builds import script_build_claims, unflagged_build_args
from docgen.audit.script_compose import fileless_composes, script_files
from docgen.audit.script_copies import script_copies
from docgen.audit.script_images import script_images
from docgen.audit.script_mounts import placeholder_mounts, script_mounts
from docgen.audit.script_names import (
    chained_runs,
    commented_programs,
    compose_names,
    described_chains,
    named_runs,
    prose_names,
    script_built_runs,
)
from docgen.audit.script_usage import argument_defaults, longer_usage, option_table_defaults
from docgen.audit.script_vars import script_variables
from docgen.audit.script_versions import script_versions
from docgen.audit.sections import (
    Build,
    headed_unbuilt_stages,
    section_builds,
    shared_tables,
    tied_sections,
)
from docgen.audit.served_apps import served_apps
from docgen.audit.server_modules import server_modules
from docgen.audit.set_aside import ci_workflows, drop_aside, set_aside
from docgen.audit.settings import setting_claims, start_into_claims, variant_port_claims
from docgen.audit.setup_files import named_nowhere, named_path, setup_files
from docgen.audit.sh_scripts import sh_scripts
from docgen.audit.shell_words import shell_words
from docgen.audit.shipped_functions import shipped_functions
from docgen.audit.shm_sizes import shm_sizes
from docgen.audit.sif_files import sif_files
from docgen.audit.spelled_folders import spelled_folders
from docgen.audit.ssh_access import ssh_access
from docgen.audit.stage_count import stage_count_claims
from docgen.audit.stage_programs import devcontainer_programs, missing_programs
from docgen.audit.start_dirs import work_dir_claims
from docgen.audit.steps import (
    built_clones,
    clone_paths,
    missing_copies,
    missing_folders,
    own_clones,
    said_remotes,
)
from docgen.audit.swapped_headings import swapped_headings
from docgen.audit.switches import cpu_feature_claims, switched_off_claims
from docgen.audit.tables import audit_tables, documented_outside_tables
from docgen.audit.tag_args import tag_args
from docgen.audit.targets import audit_targets, toolkit_targets
from docgen.audit.unbuilt_bases import unbuilt_bases
from docgen.audit.unbuilt_link import unbuilt_links
from docgen.audit.unentered_mounts import unentered_mounts
from docgen.audit.unmounted_scripts import unmounted_scripts
from docgen.audit.unpublished_ports import unmapped_runs, unpublished_ports
from docgen.audit.unread_env import (
    overridden_env_claims,
    prose_env_claims,
    required_optional_claims,
    unread_env_claims,
)
from docgen.audit.unread_files import unread_files
from docgen.audit.unset_stops import unset_variables
from docgen.audit.unshipped_cmd import (
    bare_script_commands,
    renamed_programs,
    slipped_programs,
    spaced_programs,
    unshipped_default_scripts,
    unshipped_run_scripts,
)
from docgen.audit.user_names import missing_homes, user_names
from docgen.audit.variant_lists import variant_lists
from docgen.audit.variant_tags import platform_builds, variant_tags
from docgen.audit.version_lists import version_lists
from docgen.audit.wording import fence_intro, heading_of, runtime_names
from docgen.audit.work_dirs import missing_work_dirs
from docgen.dockerfile import read_dockerfile
from docgen.errors import DocgenError
from docgen.files import dockerfiles_in, real_path, stays_home
from docgen.lint import arg_names
from docgen.markdown import Document, Fence, read_document, source_lines
from docgen.model import Diagnostic, ImageModel

__all__ = ["CERTAIN", "FAMILIES", "LIKELY", "audit", "variant"]


# --------------------------------------------------------------------------------------------------
# Rule ids: each check's family, decided here, in one place

_STALE_CLAIMS: tuple[Callable[..., object], ...] = (
    bake_unpinned,
    unbuilt_extensions,
    unmade_mounts,
    architecture_claims,
    arg_entry_claims,
    ref_sources,
    arg_list_claims,
    build_arg_lists,
    badged_images,
    base_claims,
    base_labels,
    broken_runs,
    placeholder_bases,
    build_flag_claims,
    builder_paths,
    left_behind,
    buildkit_features,
    denied_args,
    inert_passed,
    written_bases,
    placeholder_builds,
    target_columns,
    titled_stages,
    named_builds,
    tagged_builds,
    chart_values,
    ci_claims,
    ci_arg_values,
    ci_platform_claims,
    cloned_repos,
    forked_upstream,
    stated_sources,
    variant_lists,
    codename_claims,
    commented_lines_claims,
    model_step_claims,
    commented_file_claims,
    commit_claims,
    compose_settings,
    unbuilt_claims,
    compose_ports,
    command_values,
    compose_urls,
    picked_ports,
    unpublished_requests,
    network_urls,
    run_requests,
    compose_variables,
    conda_python,
    config_keys,
    nested_keys,
    content_row_claims,
    image_lists,
    left_out_claims,
    library_lists,
    listed_contents,
    listed_components,
    builder_installs,
    every_base,
    pasted_copies,
    plain_copies,
    gpu_runs,
    gpu_claims,
    cpu_claims,
    swapped_variants,
    flavour_claims,
    fixed_wheels,
    said_indexes,
    default_bounds,
    manifest_bounds,
    dependency_rows,
    disabled_downloads,
    disabled_installs,
    disabled_promises,
    disabled_sources,
    distro_args,
    downloaded_copies,
    driver_claims,
    dropped_stages,
    title_components,
    default_modes,
    entry_options,
    run_script_options,
    env_blocks,
    env_defaults,
    unprovided_defaults,
    env_homes,
    env_slips,
    spack_versions,
    every_image_claims,
    example_copies,
    excerpts,
    exec_form_env,
    single_quoted_env,
    family_defaults,
    assignment_block,
    audit_fence,
    described_block,
    image_build_block,
    listed_not_installed,
    listed_versions,
    fixed_defaults,
    floating_pins,
    pins_never_named,
    gpu_less_compose,
    gpu_only_compose,
    gpu_less_scripts,
    gpu_devcontainer,
    quoted_settings,
    gpu_floor_claims,
    gpu_model_claims,
    gpu_support_claims,
    linked_release_claims,
    health_ports,
    plain_health_checks,
    unserved_checks,
    held_tool_claims,
    profile_entry_claims,
    guarded_args,
    idle_args,
    partly_idle_args,
    latest_args,
    env_said_args,
    lost_args,
    ignored_places,
    image_paths,
    image_tag_claims,
    download_tags,
    included_paths,
    install_dirs,
    jetpack_rows,
    jupyter_tokens,
    unstarted_jupyter,
    unlaunched_jupyter,
    mesh_hosts,
    keyed_entries,
    latest_claims,
    left_over_items,
    line_references,
    linked_rows,
    listed_env,
    run_script_env,
    unset_started_vars,
    listed_python,
    log_paths,
    main_only_env,
    make_defaults,
    built_claims,
    prebuilt_claims,
    channel_claims,
    distribution_claims,
    source_link_claims,
    tool_claims,
    here_mount_claims,
    home_mount_claims,
    mount_claims,
    source_mount_claims,
    near_mount_targets,
    restated_mounts,
    moved_clones,
    moved_data,
    unclaimed_volumes,
    unrun_builds,
    discarded_commands,
    audit_paragraph,
    set_for_build,
    pinned_claims,
    plain_cuda,
    moved_ports,
    port_var_claims,
    compose_start_ports,
    port_rows,
    published_ports,
    preset_env,
    promised_variants,
    audit_text,
    provided_claims,
    published_tags,
    version_prefixes,
    python_paths,
    rehomed_mounts,
    volume_elsewhere,
    reinstalled_torch,
    release_vars,
    response_keys,
    restated_versions,
    ros_distro_claims,
    ros_variants,
    runtime_claims,
    run_urls,
    runtime_bases,
    said_values,
    script_copies,
    script_mounts,
    argument_defaults,
    option_table_defaults,
    script_variables,
    script_versions,
    served_apps,
    setting_claims,
    start_into_claims,
    variant_port_claims,
    shm_sizes,
    recipe_bases,
    spelled_folders,
    ssh_access,
    stage_count_claims,
    work_dir_claims,
    swapped_headings,
    cpu_feature_claims,
    switched_off_claims,
    audit_tables,
    tag_args,
    audit_targets,
    toolkit_targets,
    unbuilt_links,
    prose_env_claims,
    required_optional_claims,
    overridden_env_claims,
    unread_env_claims,
    unread_files,
    script_artefacts,
    unshipped_default_scripts,
    missing_homes,
    user_names,
    platform_builds,
    variant_tags,
    version_lists,
    missing_work_dirs,
)
"""DG101 `stale-claim`: claims about the image (versions, build args and their defaults, bases,
components, environment, ports, users, paths in the image …) and what else the project says of itself."""

_MISSING_FILES: tuple[Callable[..., object], ...] = (
    bake_dockerfiles,
    bake_contexts,
    target_clones,
    bind_devices,
    case_slips,
    unnamed_supplies,
    clone_misses,
    clone_walks,
    missing_cmd_files,
    unfilled_cmd_paths,
    compose_builds,
    compose_paths,
    curl_uploads,
    described_copies,
    unheld_copies,
    edited_configs,
    listed_absent,
    globbed_scripts,
    missing_launch_files,
    lost_folders,
    listed_files,
    missing_links,
    missing_own_files,
    misspelt_paths,
    named_licenses,
    pointed_folders,
    moved_scripts,
    provided_locks,
    absent_prose_scripts,
    missing_prose_scripts,
    dead_code_names,
    dead_finding,
    misnamed_links,
    home_checkout_paths,
    missing_scripts,
    uncopied_container_scripts,
    unshipped_run_scripts,
    unlisted_names,
    mapped_slips,
    fileless_composes,
    script_files,
    server_modules,
    setup_files,
    named_nowhere,
    clone_paths,
    missing_copies,
    missing_folders,
)
"""DG102 `missing-file`: a file, folder, script or Dockerfile the README names, or a command of it needs,
that the repository does not hold."""

_BROKEN_COMMANDS: tuple[Callable[..., object], ...] = (
    ros_distro_paths,
    unreadable_builds,
    spaced_programs,
    slipped_programs,
    piped_scripts,
    bake_targets,
    branch_refs,
    dead_targets,
    unpassed_required,
    script_unpassed,
    clone_folders,
    clone_slips,
    clone_scripts,
    slipped_commands,
    escaped_substitutions,
    spaced_assignments,
    unjoined_lines,
    unbuilt_images,
    unused_builds,
    retagged_runs,
    doubled_images,
    help_commands,
    port_clashes,
    compose_services,
    misplaced_container_scripts,
    unsuffixed_container_scripts,
    container_names,
    broken_continuations,
    blank_continuations,
    joined_commands,
    missing_continuations,
    powershell_continuations,
    docker_cli,
    removed_in_use,
    misplaced_options,
    entered_builds,
    prose_builds,
    entered_compose,
    unentered_compose,
    placed_compose,
    placed_makes,
    unknown_programs,
    exiting_starts,
    overridden_prefixes,
    exported_unread,
    substituted_names,
    placeholder_mounts,
    fresh_contexts,
    command_grammar,
    help_copies,
    copied_contexts,
    said_contexts,
    crossed_contexts,
    imageless_runs,
    optioned_runs,
    last_word_cds,
    local_bases,
    loopback_binds,
    make_builds,
    unflagged_recipe_args,
    make_env,
    env_built_args,
    unmade_targets,
    unread_makefiles,
    make_vars,
    mounted_code,
    mounted_scripts,
    idle_mounts,
    hidden_paths,
    doubled_paths,
    top_mount_paths,
    mpi_as_root,
    name_misses,
    other_owner_images,
    moved_images,
    pulled_latest,
    renamed_images,
    make_renamed_runs,
    run_owner_images,
    twin_owner_runs,
    other_builds,
    undescribed_builds,
    placeholder_folders,
    build_platforms,
    pushed_names,
    built_never_run,
    committed_unrun,
    pulled_runs,
    pulled_slips,
    recipe_cds,
    entered_files,
    context_misses,
    clone_builds,
    default_file_builds,
    request_routes,
    root_sockets,
    routed_ports,
    alternative_pulls,
    renamed_pulls,
    doubled_programs,
    other_programs,
    dropped_namespaces,
    empty_commands,
    idle_shells,
    run_args,
    shell_programs,
    loaded_tags,
    saved_images,
    ignored_arguments,
    option_lists,
    positional_options,
    rejected_arguments,
    rejected_options,
    undeclared_options,
    prose_options,
    braced_values,
    unknown_first_words,
    unused_arguments,
    container_script_args,
    entry_script_args,
    unentered_script_args,
    project_script_args,
    unplaced_script_options,
    script_build_claims,
    unflagged_build_args,
    script_images,
    chained_runs,
    commented_programs,
    compose_names,
    described_chains,
    named_runs,
    prose_names,
    script_built_runs,
    longer_usage,
    sh_scripts,
    shell_words,
    shipped_functions,
    sif_files,
    missing_programs,
    devcontainer_programs,
    unbuilt_bases,
    near_images,
    compose_shapes,
    compose_loads,
    run_paths,
    unentered_mounts,
    unmounted_scripts,
    unpublished_ports,
    unmapped_runs,
    unset_variables,
    bare_script_commands,
    renamed_programs,
)
"""DG103 `broken-command`: a README command that cannot work as written: an option the CLI or script
rejects, its shell grammar or line continuations, run from the wrong folder, an image name no build makes,
a flag or word in the wrong place."""

FAMILIES: dict[Callable[..., object], str] = {
    check: rule
    for rule, checks in (
        (findings.AUDIT, _STALE_CLAIMS),
        (findings.MISSING_FILE, _MISSING_FILES),
        (findings.BROKEN_COMMAND, _BROKEN_COMMANDS),
    )
    for check in checks
}
"""Each check `audit` runs → the rule id of its findings (`docgen.findings.AUDIT_RULES`). A check
missing here is an error at its first call (`_ruled`); `tests/test_audit_rule_ids.py` asserts every check
`audit` calls is here and called through `_ruled`."""

_P = ParamSpec("_P")


def _tagged(check: Callable[..., object], found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`found`, the findings of `check`, each with its family's rule id (`FAMILIES`) unless it has one."""
    rule = FAMILIES[getattr(check, "__wrapped__", check)]  # (a check wrapped keeps its family)
    return [d if d.rule else replace(d, rule=rule) for d in found]


def _ruled(
    check: Callable[_P, Iterable[Diagnostic]], *args: _P.args, **kwargs: _P.kwargs
) -> list[Diagnostic]:
    """The findings of `check(*args, **kwargs)`, each with its family's rule id (`_tagged`)."""
    return _tagged(check, check(*args, **kwargs))


_BELOW_DEPTH = 3
"""How deep below the README's folder its other images' Dockerfiles are looked for (`modelzoo/
ascend-pytorch/aarch/Dockerfile` of a README documenting each framework's and architecture's build)."""
_BELOW_MOST = 40
"""At most this many of them are read (a monorepo's root README is not about every Dockerfile in it)."""


_NOT_IMAGES = re.compile(
    r"(?:tests?|testing|test_?data|fixtures?|__fixtures__|examples?|third[_-]?party|3rdparty|vendor(?:ed)?"
    r"|externals?|extern|submodules?|node_modules)\Z",
    re.I,
)
"""A folder whose Dockerfiles are no image of the README's: tests, their fixtures, examples, vendored code."""


def _readme_images(directory: Path, audited: Sequence[str], text: str) -> list[Path]:
    """The Dockerfiles below `directory` (`_BELOW_DEPTH` folders down, the first `_BELOW_MOST`) that may
    be images of the README's: not in a folder of tests, examples or vendored code (`_NOT_IMAGES`, or one
    holding a `.git` of its own: a submodule), unless the README names the file or its folder (a `-f`, a
    link, a `cd`, a tree) or it sits beside a Dockerfile audited."""
    beside = {real_path(Path(p)).parent for p in audited} | {real_path(directory / p).parent for p in audited}
    kept: list[Path] = []
    for file in dockerfiles_in(directory, _BELOW_DEPTH, pass_unreadable=True):
        folders = file.relative_to(directory).parts[:-1]
        named = "/".join(folders)
        foreign = any(_NOT_IMAGES.match(f) for f in folders) or any(
            os.path.exists(directory.joinpath(*folders[: i + 1]) / ".git") for i in range(len(folders))
        )
        if not foreign or real_path(file.parent) in beside or _names_folder(text, named):
            kept.append(file)
    return kept[:_BELOW_MOST]


def _names_folder(text: str, folder: str) -> bool:
    """True when `text` names the path `folder` (`cd examples/base`, `examples/base/Dockerfile`)."""
    return folder in text and re.search(rf"(?<![\w.-]){re.escape(folder)}\b", text) is not None


def _args_below(directory: Path, audited: Sequence[str], text: str) -> frozenset[str]:
    """The build args the Dockerfiles below `directory` that are not audited and may be the README's
    (`_readme_images`) declare: a README about several images documents the args of the ones not
    audited too. A file that cannot be read declares none."""
    mine = {real_path(Path(p)) for p in audited} | {real_path(directory / p) for p in audited}
    found: set[str] = set()
    for file in _readme_images(directory, audited, text):
        if real_path(file) in mine or not stays_home(file):
            continue
        try:
            parsed = read_dockerfile(file)
        except (DocgenError, OSError):
            continue
        for inst in parsed.instructions:
            if inst.keyword == "ARG":
                found.update(arg_names(inst, parsed.escape))
    return frozenset(found)


def audit(
    text: str,
    path: str,
    model: ImageModel | Sequence[ImageModel],
    names: Mapping[str, str] = {},
    directory: Path | None = None,
    project: Path | None = None,
    rebuild: Callable[[ImageModel, Mapping[str, str]], ImageModel | None] | None = None,
    restage: Callable[[ImageModel, str], ImageModel | None] | None = None,
    unreadable: Mapping[str, DocgenError] = {},
) -> list[Diagnostic]:
    """Claims in the Markdown `text` (shown as `path`) outside docgen blocks that contradict `model`, or,
    for a README about a family of images, the models of their Dockerfiles.

    Returns diagnostics sorted by README line, each `README says X but Dockerfile:N says Y` or naming a
    build arg that is documented but not declared, or declared but missing from the README's table, and
    each with its confidence (`certain`, `likely`). A section that says which image it is about (a build
    command's `-f`, a Dockerfile or an image variant in its heading, a link to a Dockerfile, the base
    image of only some of them) is compared with that image only, or not at all when it is none of
    them; any other part with every image, and a claim agreeing with one of them is true.
    With `directory` (where the README is), links and `-f` paths to Dockerfiles that do not exist and
    build contexts that do not hold what their Dockerfile copies too, and the Dockerfiles next to it
    that are not audited tell the sections about them; links to other files that do not exist and
    paths in code a slip away from a file are reported; the scripts its commands run, build contexts,
    and the Dockerfiles its links and `-f` name, are looked for only in `project` (for scripts and
    contexts, by default the README's folder and four above it).
    With `rebuild` (a model and build args → the model of its Dockerfile built with them, None when they
    cannot build it), a section whose build commands pass `--build-arg NAME=VALUE` is compared with the
    images as those commands build them (`section_builds`), not as the Dockerfiles declare them; the
    defaults it states are still compared with the ARG defaults.
    With `restage` (a model and a stage name → the model of its Dockerfile built to that stage, None
    when it cannot be), a section headed by a stage no build target builds (`### ITEX XPU Base`, its
    compose service commented out) is compared with that stage's image; without it, with none.
    With no model at all (no Dockerfile found for the README), only the claims that need no image are
    read: its files and folders, the scripts and compose files its commands use, the grammar of its
    commands (every rule up to the command checks, none of the claim readers over the images).
    `unreadable` (a Dockerfile's real path → the error reading it) are the Dockerfiles found for the
    README that docker cannot read: a build command of the README that builds one cannot start.
    Raises `MarkerError` when the text's docgen markers are broken.
    """
    memo.forget()  # (the files are read as they are now, relative paths from the working folder now)
    text = without_past_columns(text)  # (`| Old | Now |`: the replaced scripts and versions are no claims)
    models = (model,) if isinstance(model, ImageModel) else tuple(model)
    doc = read_document(text, path)
    everything = frozenset(range(len(models)))
    siblings = (
        [p.relative_to(directory).as_posix() for p in dockerfiles_in(directory, 1, pass_unreadable=True)]
        if directory is not None
        else []
    )
    audited = [m.path for m in models]
    dead = (
        list(dead_references(doc, directory, siblings, audited, text, project))
        if directory is not None
        else []
    )
    # the images of the stages no build target builds that headings name: audited under those only
    staged: dict[str, int] = {}
    extra: list[ImageModel] = []
    for index, stage in headed_unbuilt_stages(doc, models) if restage is not None else ():
        if restage is not None and (built_to := restage(models[index], stage)) is not None:
            staged.setdefault(stage.lower().replace("_", "-"), len(models) + len(extra))
            extra.append(built_to)
    dead_lines = {(line, target) for line, target, _ in dead}
    # the build args of a build whose Dockerfile is gone are compared with no guess of it
    guessed = guessed_builds(doc, dead, models, siblings)
    near = folder_builds(doc, dead, models, siblings)
    tied = tied_sections(doc, models, siblings, dead_lines, staged)
    # a README naming one Dockerfile of several is about it and the ones it is built on (`own_image`);
    # when its local base cannot be told, a finding must hold for every sibling that may build it
    own = readme_image(doc, models, tied)
    untied = own.images if own is not None else everything
    choices = own.choices if own is not None else ()
    runtime = runtime_names(doc)
    elsewhere = documented_outside_tables(doc)
    parts: dict[tuple[frozenset[int], frozenset[Build]], Document] = {}
    source = source_lines(text)
    # the auditor of every image; a part's is its `_with` the images the part is about (itself for all)
    below = _args_below(directory, audited, text) if directory is not None else frozenset()
    # (its whole-README facts are read once the asides are set aside: settle)
    facts = AuditFacts(doc, directory)
    family = Auditor.of(path, models, names, facts, models, tuple(siblings), runtime, below)
    # an entry under the name of one image's folder is about that image wherever it is (`Older images`)
    keyed = list(_ruled(keyed_entries, doc, family))
    workflows = ci_workflows(directory, project) if directory is not None else []
    # scripts are files of the checkout: a section set aside below (the host's) still runs them
    scripts = (
        list(_ruled(moved_scripts, doc, text, directory, audited, models, path, project)) if directory else []
    )
    clone_of_self = None  # tells clones of this very repository (root and remotes read once): own_clones
    if directory is not None:  # (a script found below is told once, with the file meant)
        clone_of_self = own_clones(doc, directory)
        moved = {d.line for d in scripts}
        # a clone entered and built (`docker build .` of the README's Dockerfile) is this checkout too
        entered_clones = built_clones(doc, directory, clone_of_self)
        missing = _ruled(missing_scripts, doc, source, directory, audited, path, project, entered_clones)
        scripts += [d for d in missing if d.line not in moved]
        # `cp ~/dev/app/x.json …` after `cd ~/dev/app && docker compose up`: a path of this checkout
        scripts += _ruled(home_checkout_paths, doc, source, directory, path)
        # a container command, wherever it is
        scripts += _ruled(missing_work_dirs, doc, models, path, directory)
        # `./x.sh` inside, not in the WORKDIR
        scripts += _ruled(misplaced_container_scripts, doc, models, path)
        # `./x.sh` inside, which the image copies from a file its context (the README's folder) lacks
        if builds_here(directory):
            inside = container_lines(doc)
            checkout = in_checkout(directory.resolve(), project_top(directory, project))
            scripts += _ruled(uncopied_container_scripts, doc, models, path, directory, inside, checkout)
        # `./test_gpu` inside, where the image copies test_gpu.sh
        scripts += _ruled(unsuffixed_container_scripts, doc, models, path)
        # `python x.py` inside, of a clone below the WORKDIR
        scripts += _ruled(clone_scripts, doc, models, path)
        # a CMD's script the image never holds
        scripts += _ruled(unshipped_default_scripts, doc, models, path)
        # `docker run img python x.py`: a script the image does not hold in its WORKDIR
        scripts += _ruled(unshipped_run_scripts, doc, source, models, path, directory)
        # `docker run img run.sh`: no PATH
        scripts += _ruled(bare_script_commands, doc, models, path, directory)
        # `docker run img create_turkish_srt`: the image puts it on the PATH under another name
        scripts += _ruled(renamed_programs, doc, models, path)
        # `ENTRYPOINT ["python3 main.py"]`: no program of that name
        scripts += _ruled(spaced_programs, doc, models, path, directory)
        # `ENTRYPOINT ["accelrate", …]` after `pip install accelerate`: a slip of the program's name
        scripts += _ruled(slipped_programs, doc, models, path, directory)
        scripts += _ruled(curl_uploads, doc, directory, path)  # a file a curl example uploads
        scripts += _ruled(request_routes, doc, directory, path, models)  # a request to no route
        scripts += _ruled(root_sockets, doc, directory, path)  # a WebSocket at the root, served on a path
        scripts += _ruled(response_keys, doc, text, path, directory)  # a response no response_model gives
        scripts += _ruled(downloaded_copies, doc, source, models, path, directory)  # another version's file
        # a build in a folder holding only downloads
        scripts += _ruled(fresh_contexts, doc, text, models, path)
        scripts += _ruled(provided_locks, doc, models, path, directory)  # a lock file the folder lacks
    # files setup steps read that the repository holds nowhere (a host section's too, read before it is
    # set aside); a file another rule names with the one meant is told by it once
    setup = []
    if directory is not None:
        setup = list(_ruled(setup_files, doc, source, directory, models, path, project, clone_of_self))
    # the host's driver, before the sections about the host are set aside: every image, unless one is named
    drivers = list(_ruled(driver_claims, doc, family))
    drivers += _ruled(gpu_floor_claims, doc, family)  # the host's GPU, as old as the README admits
    drivers += _ruled(gpu_support_claims, doc, family)  # NVIDIA cards said supported, no code for them
    # a variable the build is said to need, before an edit instruction (`replace the value of …`) is set aside
    build_vars = list(_ruled(set_for_build, doc, family))
    if directory is not None:  # a pin a release is said to update that nothing of the project names
        readme_file = real_path(directory / Path(path).name)
        root = project if project is not None else directory
        build_vars += _ruled(release_vars, doc, family, root, readme_file, runtime, build_vars)
    # what the README says its CI workflow does, before sections about releases or the host are set aside
    ci_claims_found = (
        list(_ruled(ci_claims, doc, path, directory, models, project)) if directory is not None else []
    )
    if directory is not None:  # published tags and platforms against the workflow that publishes them
        ci_claims_found += _ruled(published_tags, doc, path, directory, models, project)
        ci_claims_found += _ruled(version_prefixes, doc, path, directory, models, project)
        ci_claims_found += _ruled(pushed_names, doc, path, directory, models, project)
        ci_claims_found += _ruled(variant_lists, doc, path, directory, models, project)
    # a config key an edit instruction names (`remove x from settings.yaml`), before such text is set aside
    keys_found = list(_ruled(config_keys, doc, path, directory)) if directory is not None else []
    keys_found += _ruled(nested_keys, doc, path, directory) if directory is not None else []
    keys_found += (
        _ruled(edited_configs, doc, path, directory, project, clone_of_self) if directory is not None else []
    )
    # the files the prerequisites tell the reader to supply, before they are set aside as the host's
    supplies = (
        list(_ruled(unnamed_supplies, doc, text, path, directory, models)) if directory is not None else []
    )
    if directory is not None:  # (before tables go to the parts of the README)
        supplies += _ruled(unprovided_defaults, doc, path, directory, project, models)
    # a udev rule or unit a script is said to set up, before its host-side description is set aside
    artefacts = list(_ruled(script_artefacts, doc, path, directory)) if directory is not None else []
    # the base a Singularity recipe beside the README starts from, before its sections are set aside
    supplies += _ruled(recipe_bases, doc, path, directory) if directory is not None else []
    # a built image a manifest then applied does not run, before the README's edit instructions are set aside
    unrun = list(_ruled(unrun_builds, doc, path, directory, project))
    set_aside(doc, source, models, siblings, names, workflows)
    fences = list(doc.fences)  # (a compose build in a section about the host still builds: `_run_blocks`)
    aside = drop_aside(doc, source, models)
    facts.settle()
    # a table row linking to the Dockerfile it is about is that image's, wherever its table is
    content_rows = list(_ruled(content_row_claims, doc, family))  # (before linked rows leave the tables)
    linked, taken = linked_rows(doc, family)
    linked = _tagged(linked_rows, linked)
    without_lines(doc, taken)  # (audited with the image each links, or another image's: read no more)
    # (a section about a stage no target builds passes its build args to no image audited)
    own_tied = {
        line: images if max(images, default=-1) < len(models) else frozenset()
        for line, images in tied.items()
    }
    builds = section_builds(doc, models, own_tied) if rebuild is not None else {}
    shared = shared_tables(doc, audited)
    shared_parts: dict[frozenset[int], Document] = {}

    def part(section: int) -> Document | None:
        images = tied.get(section, untied)
        built = frozenset(b for b in builds.get(section, ()) if b[0] in images)
        return parts.setdefault((images, built), Document()) if images else None

    for table in doc.tables:
        if table.line in shared:  # a table about several images, as its introduction says
            if shared[table.line]:
                shared_parts.setdefault(shared[table.line], Document()).tables.append(table)
        elif (into := part(table.section)) is not None:
            into.tables.append(table)
    for para in doc.paragraphs:
        if (into := part(para.section)) is not None:
            into.paragraphs.append(para)
    for fence in doc.fences:
        if (into := part(fence.section)) is not None:
            into.fences.append(fence)
    for line, heading in doc.headings:
        if line not in aside and (into := part(line)) is not None:
            into.headings.append((line, heading))
    found = _tagged(
        dead_finding,
        [dead_finding(path, line, target, flag, models, siblings, doc) for line, target, flag in dead],
    )
    if directory is not None:
        run_doc = _run_blocks(doc, fences)  # (the builds of the host's sections too)
        found.extend(_ruled(misnamed_links, source, doc, path, directory))
        unlisted = list(_ruled(unlisted_names, doc, path, directory, siblings))
        found.extend(unlisted)  # (a list's stale name is told once, with the one it most likely means)
        listed = {d.line for d in unlisted}
        found.extend(_ruled(dead_code_names, doc, path, directory, audited, project, listed, source))
        found.extend(scripts)
        found.extend(_ruled(missing_links, doc, path, directory, project))
        told_own = said_remotes(doc, repository_root(directory) or directory.resolve())
        found.extend(_ruled(missing_own_files, doc, path, directory, project, told_own))
        found.extend(_ruled(piped_scripts, doc, path, directory, project, told_own))
        found.extend(_ruled(unbuilt_links, doc, path, directory, project))
        found.extend(_ruled(named_licenses, doc, path, directory, project))
        found.extend(_ruled(misspelt_paths, doc, path, directory))
        found.extend(_ruled(pointed_folders, doc, path, directory))
        found.extend(_ruled(commented_file_claims, doc, path, directory))
        found.extend(_ruled(unread_files, doc, path, directory, models))
        found.extend(artefacts)
        found.extend(_ruled(lost_folders, doc, path, directory, audited, project))
        found.extend(_ruled(clone_folders, doc, path, directory))
        slips = list(_ruled(clone_slips, doc, text, path, directory))
        found.extend(slips)
        found.extend(_ruled(last_word_cds, doc, path))
        found.extend(
            _ruled(
                entered_builds,
                doc,
                path,
                directory,
                project,
                [m.file for m in models if m.file],
                clone_of_self,
                source,
            )
        )
        found.extend(_ruled(prose_builds, doc, path, directory, project))
        found.extend(_ruled(saved_images, doc, path, directory, models, project))
        found.extend(_ruled(loaded_tags, doc, path, directory))
        found.extend(_ruled(sif_files, doc, path, text, directory, project))
        found.extend(_ruled(broken_runs, doc, path, directory, models, project))
        found.extend(_ruled(placeholder_bases, doc, path, directory, models, project))
        found.extend(_ruled(unreadable_builds, doc, path, directory, unreadable))
        found.extend(_ruled(sh_scripts, doc, path, directory))
        found.extend(_ruled(unpublished_ports, doc, text, path, directory, models))
        found.extend(_ruled(unmapped_runs, doc, text, path, directory, models))
        found.extend(_ruled(case_slips, doc, path, directory, models))
        found.extend(_ruled(listed_files, doc, path, directory))
        cloned = clone_of_self is not None and _clones_itself(doc, clone_of_self)
        prose_scripts = list(_ruled(missing_prose_scripts, doc, source, path, directory, cloned, models))
        prose_scripts += _ruled(absent_prose_scripts, doc, source, path, directory, models)
        found.extend(prose_scripts)
        found.extend(_ruled(listed_absent, doc, path, directory, models))
        found.extend(keys_found)
        found.extend(supplies)
        found.extend(
            _ruled(
                context_misses,
                run_doc,
                source,
                directory,
                path,
                project,
                built_clones(run_doc, directory, clone_of_self, only_built=True),
            )
        )
        found.extend(_ruled(clone_builds, run_doc, source, path, directory, project))
        found.extend(_ruled(globbed_scripts, doc, source, directory, path, project, clone_of_self))
        said = [d.message for d in found]
        found.extend(_ruled(described_copies, doc, source, path, directory, models, project, said))
        found.extend(_ruled(distro_args, doc, path, directory, audited))
        found.extend(_ruled(image_paths, doc, models, path, directory))
        found.extend(_ruled(moved_clones, doc, models, path, directory))
        found.extend(_ruled(builder_paths, doc, path, models, directory))
        found.extend(_ruled(left_behind, doc, path, models))
        found.extend(_ruled(target_clones, doc, path, models))
        found.extend(_ruled(near_mount_targets, doc, text, models, path, directory))
        found.extend(_ruled(restated_mounts, doc, models, path, directory))
        found.extend(_ruled(rehomed_mounts, doc, text, models, path, directory))
        found.extend(_ruled(script_copies, doc, path, directory))
        found.extend(_ruled(mapped_slips, doc, path, directory))
        found.extend(_ruled(volume_elsewhere, doc, text, models, path, directory))
        found.extend(_ruled(ssh_access, doc, models, path, directory))
        found.extend(_ruled(missing_launch_files, doc, text, models, path, directory))
        found.extend(
            _ruled(log_paths, doc, path, directory, [Path(m.file) for m in models if m.file], project)
        )
        found.extend(_ruled(server_modules, doc, text, models, path, directory, project))
        found.extend(_ruled(served_apps, doc, models, path, directory, project))
        found.extend(_ruled(routed_ports, doc, path, directory, models))
        found.extend(_ruled(ros_variants, doc, text, models, path, directory))
        found.extend(_ruled(ros_distro_claims, doc, models, path))
        found.extend(_ruled(ros_distro_paths, doc, text, models, path))
        found.extend(_ruled(codename_claims, doc, text, models, path))
        found.extend(_ruled(default_bounds, doc, models, path))
        found.extend(_ruled(manifest_bounds, doc, models, path, directory))
        found.extend(_ruled(included_paths, doc, models, path, directory))
        found.extend(_ruled(spelled_folders, doc, models, path, directory))
        found.extend(_ruled(placeholder_folders, doc, path, directory))
        found.extend(_ruled(spack_versions, doc, models, path, directory))
        found.extend(_ruled(name_misses, doc, path, directory, models, project, text))
        found.extend(_ruled(container_names, doc, text, path, directory, project))
        found.extend(_ruled(missing_folders, doc, text, directory, audited, path, project))
        copies = list(_ruled(missing_copies, doc, source, directory, audited, path, project))
        found.extend(copies)
        told = {d.line for d in (*scripts, *copies, *prose_scripts)}  # a script in inline code: told once
        found.extend(d for d in setup if d.line not in told)
        # a path another rule names on its line (`did you mean`, a script run): told once
        found.extend(
            d
            for d in _ruled(named_nowhere, doc, source, directory, models, path, project)
            if d.line not in told and not any(o.line == d.line and named_path(d) in o.message for o in found)
        )
        found.extend(_ruled(clone_paths, doc, directory, path))
        found.extend(_ruled(clone_misses, doc, text, path, directory))
        entered = {d.line for d in slips}
        found.extend(d for d in _ruled(clone_walks, doc, path, directory, project) if d.line not in entered)
        found.extend(_ruled(unmounted_scripts, doc, models, path, directory))
        found.extend(_ruled(doubled_paths, doc, models, path, directory, facts.built))
        found.extend(_ruled(top_mount_paths, doc, models, path, directory, facts.built))
        found.extend(_ruled(bake_targets, doc, path, directory, project))
        found.extend(_ruled(bake_dockerfiles, doc, path, directory, project))
        found.extend(_ruled(bake_contexts, doc, path, directory, project))
        found.extend(_ruled(bake_unpinned, doc, path, directory, project))
        found.extend(_ruled(line_references, doc, path, directory))
        found.extend(_ruled(compose_settings, doc, path, directory, models, project))
        found.extend(_ruled(compose_variables, doc, path, directory, models, project))
        found.extend(_ruled(preset_env, doc, path, directory, models, project))
        found.extend(_ruled(compose_start_ports, doc, text, path, directory, project))
        found.extend(_ruled(env_slips, doc, path, directory, models, project))
        found.extend(_ruled(compose_services, doc, path, directory, project))
        found.extend(_ruled(compose_urls, doc, path, directory, models, project))
        found.extend(_ruled(picked_ports, doc, path, directory, models, project))
        found.extend(_ruled(unpublished_requests, doc, path, directory, models, project))
        found.extend(_ruled(network_urls, doc, path, directory, models, project))
        found.extend(_ruled(run_requests, doc, path))
        found.extend(_ruled(bind_devices, doc, text, path, directory))
        found.extend(_ruled(compose_paths, doc, text, path, directory, project))
        found.extend(_ruled(compose_shapes, doc, path, directory, project))
        found.extend(_ruled(compose_loads, doc, path, directory, audited, project))
        found.extend(_ruled(unbuilt_claims, doc, path, directory, audited, project))
        found.extend(_ruled(unbuilt_extensions, doc, path, directory, project))
        found.extend(_ruled(run_paths, doc, path, directory, project))
        found.extend(_ruled(unmade_mounts, doc, text, path, directory, project))
        found.extend(_ruled(compose_ports, doc, path, directory, models, project))
        found.extend(_ruled(port_clashes, doc, path, directory, project))
        found.extend(_ruled(command_values, doc, path, directory, models, project))
        found.extend(_ruled(help_commands, doc, path, directory, project))
        found.extend(_ruled(loopback_binds, doc, path))
        found.extend(_ruled(rejected_arguments, doc, path, directory, audited, project))
        found.extend(_ruled(ignored_arguments, doc, path, directory, audited, project, clone_of_self))
        found.extend(_ruled(script_build_claims, doc, source, path, directory, audited, project))
        found.extend(_ruled(script_unpassed, doc, text, path, directory, audited, project, models))
        found.extend(_ruled(unflagged_build_args, doc, path, directory, audited, project))
        found.extend(_ruled(recipe_cds, doc, source, path, directory, audited, project))
        found.extend(_ruled(entered_files, doc, text, source, path, directory, project))
        found.extend(_ruled(make_builds, doc, source, path, directory, audited, project))
        found.extend(_ruled(unflagged_recipe_args, doc, path, directory, project))
        found.extend(_ruled(missing_cmd_files, doc, source, models, path, directory))
        found.extend(_ruled(unfilled_cmd_paths, doc, text, models, path))
        found.extend(_ruled(ignored_places, doc, source, models, path))
        found.extend(_ruled(fileless_composes, doc, path, directory, audited, project))
        found.extend(_ruled(script_files, doc, path, directory, audited, project))
        found.extend(_ruled(option_lists, doc, path, directory))
        found.extend(_ruled(rejected_options, doc, path, directory, audited, project))
        found.extend(_ruled(undeclared_options, doc, path, directory, audited, project, models))
        found.extend(_ruled(prose_options, doc, path, directory, audited, project))
        found.extend(_ruled(braced_values, doc, path, directory, audited, project))
        found.extend(_ruled(container_script_args, doc, path, models))
        found.extend(_ruled(entry_script_args, doc, path, models))
        found.extend(_ruled(unentered_script_args, doc, path, directory, project, models))
        found.extend(_ruled(project_script_args, doc, path, directory, audited, project, models))
        found.extend(_ruled(unplaced_script_options, doc, path, directory, audited, project, models))
        found.extend(_ruled(slipped_commands, doc, path, directory, audited, project))
        found.extend(_ruled(spaced_assignments, doc, path, directory, audited, project))
        found.extend(_ruled(unjoined_lines, doc, path, directory, audited, project))
        found.extend(_ruled(positional_options, doc, path, directory, audited, project))
        found.extend(_ruled(unknown_first_words, doc, path, directory, audited, project))
        found.extend(_ruled(unused_arguments, doc, path, directory, audited, project))
        found.extend(_ruled(longer_usage, doc, path, directory, audited, project))
        found.extend(_ruled(argument_defaults, doc, path, directory, audited, project, models))
        found.extend(_ruled(option_table_defaults, doc, path, directory, audited, project))
        found.extend(_ruled(help_copies, doc, path, directory))
        found.extend(_ruled(fixed_wheels, doc, path, models))
        found.extend(_ruled(said_indexes, doc, path, models))
        found.extend(_ruled(mount_claims, doc, path, directory, models, project))
        found.extend(_ruled(here_mount_claims, doc, path, directory, project))
        found.extend(_ruled(home_mount_claims, doc, path, directory, project))
        found.extend(_ruled(source_mount_claims, doc, path, directory, project))
        found.extend(_ruled(jupyter_tokens, doc, text, path, directory, models))
        found.extend(_ruled(unstarted_jupyter, doc, text, path, directory, models))
        found.extend(_ruled(unlaunched_jupyter, doc, text, path, directory, models))
        found.extend(_ruled(mesh_hosts, doc, text, path, directory, models))
        found.extend(_ruled(listed_env, doc, text, path, models))
        found.extend(_ruled(unset_started_vars, doc, text, path, models, directory))
        found.extend(_ruled(run_script_env, doc, text, path, directory, audited, project, models))
        found.extend(_ruled(entry_options, doc, text, path, models))
        found.extend(_ruled(run_script_options, doc, text, path, directory))
        found.extend(_ruled(shipped_functions, doc, text, path, models))
        found.extend(_ruled(script_mounts, doc, path, directory, models, project))
        found.extend(_ruled(placeholder_mounts, doc, path, directory, audited, project, clone_of_self))
        found.extend(_ruled(overridden_prefixes, doc, path, directory, audited, project, models))
        found.extend(_ruled(script_images, doc, path, directory, models, audited, project, clone_of_self))
        found.extend(_ruled(script_variables, doc, path, directory, models))
        found.extend(_ruled(other_owner_images, doc, text, path, directory, models, project))
        found.extend(_ruled(run_owner_images, doc, path, directory, models, project))
        found.extend(_ruled(make_renamed_runs, doc, path, directory, models, project))
        found.extend(_ruled(renamed_images, doc, text, path, directory, models, project))
        found.extend(_ruled(moved_images, doc, path, directory, models, project))
        found.extend(_ruled(twin_owner_runs, doc, path, directory, models, project))
        found.extend(_ruled(pulled_latest, doc, path, directory, models, project))
        unread = list(_ruled(exported_unread, doc, path, directory, audited, project, clone_of_self))
        found.extend(unread)
        found.extend(_ruled(substituted_names, doc, path, directory, audited, project, clone_of_self))
        wanted = {m.group(1) for d in unread if (m := re.search(r"exits unless (\w+)", d.message))}
        found.extend(
            d
            for d in _ruled(unset_variables, doc, text, path, directory, audited, project, models)
            if not any(f" {name} (" in d.message for name in wanted)  # (said with the export)
        )
        found.extend(_ruled(chart_values, doc, path, directory))
        found.extend(_ruled(make_defaults, doc, text, path, directory, models))
        found.extend(_ruled(unmade_targets, doc, path, directory, project))
        found.extend(_ruled(unread_makefiles, doc, path, directory, project))
        found.extend(_ruled(make_vars, doc, path, directory, project))
        found.extend(_ruled(make_env, doc, path, directory, models))
        found.extend(_ruled(pulled_runs, doc, path, directory))
        found.extend(_ruled(pulled_slips, doc, text, path, directory))
        found.extend(_ruled(built_never_run, doc, path, directory))
        found.extend(_ruled(committed_unrun, doc, path, directory))
        found.extend(_ruled(chained_runs, doc, path, directory, project))
        found.extend(_ruled(commented_programs, doc, path, directory, project))
        found.extend(_ruled(described_chains, doc, path, directory, project))
        found.extend(_ruled(named_runs, doc, path, directory, project))
        found.extend(_ruled(compose_names, doc, path, directory, project))
        found.extend(_ruled(prose_names, doc, path, directory, project))
        found.extend(_ruled(script_built_runs, doc, path, directory, project))
        found.extend(
            _ruled(
                compose_builds, run_doc, path, directory, project, source, built_clones(run_doc, directory)
            )
        )
        found.extend(_ruled(unbuilt_images, doc, path, directory, project))
        found.extend(_ruled(unused_builds, doc, path, directory, project))
        found.extend(_ruled(retagged_runs, doc, path, directory, project))
        found.extend(_ruled(doubled_images, doc, path, directory, project))
        found.extend(_ruled(gpu_only_compose, doc, path, directory))
        found.extend(_ruled(gpu_less_scripts, doc, path, directory, audited, project, clone_of_self))
        found.extend(_ruled(gpu_less_compose, doc, path, directory))
        found.extend(_ruled(shm_sizes, doc, text, path, directory, project))
        found.extend(_ruled(script_versions, doc, text, path, directory, models))
        found.extend(_ruled(entered_compose, doc, path, directory, project))
        found.extend(_ruled(unentered_compose, doc, text, path, directory, project))
        found.extend(_ruled(placed_compose, doc, text, path, directory, project))
        found.extend(_ruled(placed_makes, doc, text, path, directory, project))
        found.extend(_ruled(tag_args, doc, path, directory, models, project))
        found.extend(_ruled(variant_tags, doc, path, directory, models, project))
        found.extend(_ruled(platform_builds, doc, path, directory, models, project))
        found.extend(_ruled(copied_contexts, doc, path, directory, tuple(models), project))
        found.extend(_ruled(said_contexts, doc, path, directory, tuple(models)))
        found.extend(_ruled(crossed_contexts, doc, path, directory, project))
        found.extend(_ruled(unbuilt_bases, doc, text, path, directory, models, project))
        found.extend(_ruled(near_images, doc, text, path, directory, models))
        # a build by a script or in words whose Dockerfile copies what a checkout holds nowhere: after
        # every rule that reads a build and tells what its context lacks (said once)
        said = [d.message for d in found]
        found.extend(_ruled(unheld_copies, run_doc, source, path, directory, models, project, said))
        found.extend(ci_claims_found)
    # the claims of its commands and of the text around them that need no image
    found.extend(_ruled(docker_cli, doc, path, directory))
    found.extend(_ruled(removed_in_use, doc, path))
    found.extend(_ruled(said_values, doc, path))
    if directory is not None:  # a README build command's arg values against the CI build of its image
        found.extend(_ruled(ci_arg_values, doc, text, path, directory, models, project))
        found.extend(_ruled(ci_platform_claims, doc, path, directory, models, project))
    found.extend(_ruled(run_urls, doc, text, path))
    found.extend(_ruled(dropped_namespaces, doc, text, path, directory))
    found.extend(_ruled(alternative_pulls, doc, text, path))
    found.extend(_ruled(renamed_pulls, doc, text, path))
    found.extend(_ruled(shell_words, doc, text, path))
    found.extend(_ruled(broken_continuations, doc, path))
    found.extend(_ruled(blank_continuations, doc, path))
    found.extend(_ruled(optioned_runs, doc, path))
    found.extend(_ruled(escaped_substitutions, doc, path))
    found.extend(_ruled(missing_continuations, doc, path))
    found.extend(_ruled(joined_commands, doc, path))
    found.extend(_ruled(powershell_continuations, doc, path))
    found.extend(_ruled(swapped_headings, doc, path))
    found.extend(_ruled(named_builds, doc, path))
    if directory is not None:
        found.extend(_ruled(tagged_builds, doc, path, directory))
        found.extend(_ruled(quoted_settings, doc, path, directory))
        found.extend(_ruled(gpu_devcontainer, doc, path, directory))
    found.extend(_ruled(jetpack_rows, doc, path))
    found.extend(_ruled(misplaced_options, doc, path, models, directory))
    if not models:  # no Dockerfile: the README's file and command claims only (none is about an image)
        return _merged(found)
    found.extend(_ruled(env_homes, doc, path, directory, models, project))
    found.extend(_ruled(command_grammar, doc, path, models, directory, project))
    found.extend(_ruled(run_args, doc, path, models, _project_build_texts(directory, models, path, project)))
    found.extend(_ruled(health_ports, doc, path, models))
    found.extend(_ruled(plain_health_checks, doc, path, models))
    found.extend(_ruled(unserved_checks, doc, path, models))
    found.extend(_ruled(local_bases, doc, text, path, models))
    found.extend(_ruled(exec_form_env, doc, text, path, models))
    found.extend(_ruled(single_quoted_env, doc, text, path, directory, models))
    found.extend(_ruled(main_only_env, doc, text, path, directory, models))
    found.extend(_ruled(shell_programs, doc, path, models, directory))
    found.extend(_ruled(doubled_programs, doc, path, models, directory))
    found.extend(_ruled(other_programs, doc, path, models, directory))
    found.extend(_ruled(empty_commands, doc, path, models))
    found.extend(_ruled(idle_shells, doc, path, models))
    found.extend(_ruled(missing_programs, doc, path, models))
    if directory is not None:
        found.extend(_ruled(devcontainer_programs, doc, path, models, directory))
    found.extend(_ruled(unknown_programs, doc, path, models))
    found.extend(_ruled(default_modes, doc, path, models, directory))
    found.extend(_ruled(exiting_starts, doc, path, models, directory))
    found.extend(_ruled(gpu_runs, doc, path, models))
    found.extend(_ruled(mpi_as_root, doc, text, path, models))
    named_users = list(_ruled(user_names, doc, text, path, models))  # added last: see the end
    found.extend(_ruled(missing_homes, doc, path, models))
    found.extend(_ruled(branch_refs, doc, path, models))
    found.extend(_ruled(imageless_runs, doc, text, path, models))
    found.extend(_ruled(badged_images, text, path, models))
    found.extend(_ruled(unentered_mounts, doc, path, models))
    found.extend(_ruled(work_dir_claims, doc, path, models, directory))
    found.extend(_ruled(unclaimed_volumes, doc, path, directory, project))
    found.extend(unrun)
    found.extend(_ruled(build_platforms, doc, models, path))
    found.extend(_ruled(buildkit_features, doc, path, models, directory))
    found.extend(_ruled(denied_args, doc, models, tied, path))
    found.extend(_ruled(idle_args, doc, models, path, elsewhere))
    found.extend(_ruled(partly_idle_args, doc, models, path, elsewhere))
    found.extend(_ruled(latest_args, doc, models, path))
    found.extend(_ruled(env_built_args, doc, models, path))
    found.extend(_ruled(env_said_args, doc, models, path))
    found.extend(_ruled(guarded_args, doc, models, path, elsewhere))
    found.extend(_ruled(lost_args, doc, models, path, elsewhere))
    found.extend(_ruled(fixed_defaults, doc, models, path, elsewhere))
    found.extend(_ruled(placeholder_builds, doc, family, tied))
    found.extend(_ruled(image_lists, doc, family))
    found.extend(_ruled(download_tags, doc, family))
    found.extend(d for fence in doc.fences for d in _ruled(example_copies, doc, fence, family, text))
    found.extend(_ruled(left_over_items, doc, family))
    found.extend(_ruled(conda_python, doc, family))
    found.extend(_ruled(plain_cuda, doc, family))
    found.extend(_ruled(runtime_bases, doc, family))
    found.extend(_ruled(reinstalled_torch, doc, family))
    found.extend(content_rows)
    found.extend(_ruled(every_image_claims, doc, family))
    found.extend(_ruled(stage_count_claims, doc, family))
    # (read with its asides: `if you have less memory, remove the step` still says the step is there)
    found.extend(_ruled(model_step_claims, read_document(text, path), family))
    found.extend(_ruled(promised_variants, doc, family, siblings))
    found.extend(_ruled(title_components, doc, text, models, path, directory))
    found.extend(keyed)
    found.extend(linked)
    found.extend(drivers)
    found.extend(build_vars)
    if directory is not None:
        found.extend(_ruled(default_file_builds, doc, models, tied, directory, path))
        found.extend(_ruled(other_builds, doc, path, directory, models, project))
        found.extend(_ruled(undescribed_builds, doc, path, directory, project))
    shown = stages_shown(doc)  # the README's own example stages, wherever its snippet is
    scripted = set_for_scripts(doc)  # (read once: every part's tables ask)
    for images, sub in shared_parts.items():
        of_all = family._with(tuple(models[i] for i in sorted(images)))
        found.extend(_ruled(audit_tables, sub, of_all, True, whole=doc, scripted=scripted))
        found.extend(_ruled(start_into_claims, sub, of_all))
    as_built = _BuiltModels((*models, *extra), rebuild)
    # build args a README's command passes through a script (`CUDA_ARCH=120 ./rebuild.sh`), by line
    forwarded = forwarded_prefixes(doc, directory, audited, models, project) if directory is not None else {}
    told_users: set[int] = set()  # the lines of the user claims `setting_claims` reported (`user_names`)
    for (images, built), sub in sorted(
        parts.items(), key=lambda item: (sorted(item[0][0]), sorted(item[0][1]))
    ):
        if choices and own is not None and images == own.images:
            # the chain of the README's image is not known: a finding of every way to complete it
            runs_told: list[set[int]] = [set() for _ in choices]
            runs = [
                list(
                    _audit_part(
                        sub,
                        doc,
                        family._with(as_built.of(c, built)),
                        elsewhere,
                        shown,
                        text,
                        forwarded,
                        scripted,
                        told,
                    )
                )
                for c, told in zip(choices, runs_told, strict=True)
            ]
            lines = [{d.line for d in run} for run in runs]
            # a user claim of the first run is told when its finding is kept: its line is in every run
            told_users.update(line for line in runs_told[0] if all(line in ls for ls in lines))
            # what the named Dockerfile's own pins contradict keeps its confidence
            alone = {
                (d.line, d.message)
                for d in _audit_part(
                    sub,
                    doc,
                    family._with(as_built.of(images, built)),
                    elsewhere,
                    shown,
                    text,
                    forwarded,
                    scripted,
                    set(),
                )
            }
            found.extend(
                d if (d.line, d.message) in alone else replace(d, confidence=LIKELY)
                for d in runs[0]
                if all(d.line in ls for ls in lines)
            )
            continue
        auditor = family._with(as_built.of(images, built))
        found.extend(_audit_part(sub, doc, auditor, elsewhere, shown, text, forwarded, scripted, told_users))
    # a user the settings rule already compared with the image's USER on that line is told once
    found.extend(d for d in named_users if d.line not in told_users)
    if guessed:
        # the build of a gone Dockerfile whose folder holds the one compared: its build args, `likely`
        found = [
            (
                replace(d, confidence=LIKELY)
                if d.line in guessed and d.message.startswith(_DOCUMENTED_ARG)
                else d
            )
            for d in found
            if d.line not in guessed or not d.message.startswith(_DOCUMENTED_ARG) or d.line in near
        ]
    return _merged(found)


_DOCUMENTED_ARG = "README documents build arg "
"""How a finding on a build arg a README line passes or documents starts (`Auditor.arg_claim`, `idle`,
`fixed_defaults`): not told on the lines of a build whose Dockerfile is gone (`guessed_builds`)."""


def _run_blocks(doc: Document, fences: Sequence[Fence]) -> Document:
    """A document of `doc`'s command blocks with those of `fences` (all of the README's) that a section
    about the host holds put back in place (`## Prerequisites` with no heading after it, its list of
    tools then `git clone …` and `docker compose up --build`): a command building from the checkout
    builds its files wherever the README says it. Not those of a section about the past or another
    tool's recipe (`## Legacy`, `## Singularity`)."""
    kept = {id(fence) for fence in doc.fences}
    titles = dict(doc.headings)
    return dataclasses.replace(
        doc,
        fences=[
            fence
            for fence in fences
            if id(fence) in kept
            or (
                is_host_heading(title := titles.get(fence.section, ""), doc.levels.get(fence.section) == 1)
                and not PAST.search(title)
                and not is_other_recipe_heading(title)
            )
        ],
    )


def _clones_itself(doc: Document, own: Callable[[int, str], tuple[str, Path] | None]) -> bool:
    """True when a command block of the README clones this very repository and enters it (`git clone
    …/app.git` then `cd app`, a later command naming a file at its root: `own`, of `steps.own_clones`)."""
    return any(own(line, text) for fence in doc.fences for line, text in fence.lines if "git clone" in text)


def _title_line(doc: Document) -> int:
    """The line of the README's title: its first heading when that is the only one of level 1 (`# name`);
    -1 when it has none."""
    tops = [line for line, level in doc.levels.items() if level == 1]
    first = min(doc.levels, default=-1)
    return first if tops == [first] else -1


def _audit_part(
    sub: Document,
    doc: Document,
    auditor: Auditor,
    elsewhere: frozenset[str],
    shown: dict[str, list[tuple[int, float]]],
    text: str,
    forwarded: Mapping[int, Sequence[tuple[str, str]]],
    scripted: frozenset[str],
    told_users: set[int],
) -> Iterator[Diagnostic]:
    """The findings of the claim readers on one part of the README, compared with `auditor`'s images;
    `forwarded`: the build args the README's script runs pass on (`forwarded_prefixes`); `scripted`: the
    names its commands set in front of a script (`set_for_scripts`); `told_users` gets the lines of the
    claims about the image's user `setting_claims` reports."""
    found: list[Diagnostic] = []
    found.extend(_ruled(audit_tables, sub, auditor, elsewhere=elsewhere, whole=doc, scripted=scripted))
    for line, heading in sub.headings:
        found.extend(_ruled(audit_text, line, heading, auditor, prose=True))
    title = _title_line(doc)
    for para in sub.paragraphs:
        found.extend(_ruled(audit_paragraph, para, auditor, untitled=para.section in (0, title)))
    found.extend(_ruled(build_arg_lists, sub, auditor, elsewhere))
    found.extend(_ruled(arg_list_claims, sub, auditor, doc))
    found.extend(_ruled(arg_entry_claims, sub, auditor))
    found.extend(_ruled(ref_sources, sub, auditor))
    found.extend(_ruled(listed_contents, sub, auditor))
    found.extend(_ruled(builder_installs, sub, auditor))
    found.extend(_ruled(library_lists, sub, auditor))
    found.extend(_ruled(listed_components, sub, doc, auditor))
    found.extend(_ruled(left_out_claims, sub, text, auditor))
    found.extend(_ruled(dependency_rows, sub, auditor))
    found.extend(_ruled(listed_python, sub, auditor))
    found.extend(_ruled(python_paths, sub, auditor))
    found.extend(_ruled(cloned_repos, sub, auditor))
    found.extend(_ruled(forked_upstream, sub, auditor, text))
    found.extend(_ruled(stated_sources, sub, auditor))
    found.extend(_ruled(disabled_installs, sub, auditor))
    found.extend(_ruled(switched_off_claims, sub, auditor, text))
    found.extend(_ruled(cpu_feature_claims, sub, auditor))
    found.extend(_ruled(disabled_promises, sub, auditor))
    found.extend(_ruled(disabled_downloads, sub, auditor))
    found.extend(_ruled(disabled_sources, sub, auditor))
    found.extend(_ruled(commented_lines_claims, sub, auditor))
    found.extend(_ruled(dropped_stages, sub, auditor))
    found.extend(_ruled(setting_claims, sub, auditor, told_users))
    found.extend(_ruled(variant_port_claims, sub, auditor, text))
    found.extend(_ruled(start_into_claims, sub, auditor))
    found.extend(_ruled(published_ports, sub, auditor))
    found.extend(_ruled(port_rows, sub, auditor))
    found.extend(_ruled(env_defaults, sub, doc, auditor))
    found.extend(_ruled(env_blocks, sub, doc, auditor))
    found.extend(_ruled(install_dirs, sub, auditor))
    found.extend(_ruled(runtime_claims, sub, doc, auditor))
    found.extend(_ruled(unread_env_claims, sub, doc, auditor))
    found.extend(_ruled(prose_env_claims, sub, auditor))
    found.extend(_ruled(required_optional_claims, sub, doc, auditor))
    found.extend(_ruled(overridden_env_claims, sub, doc, auditor))
    found.extend(_ruled(port_var_claims, sub, doc, auditor))
    found.extend(_ruled(moved_ports, sub, auditor))
    found.extend(_ruled(discarded_commands, sub, auditor))
    found.extend(_ruled(family_defaults, sub, auditor))
    found.extend(_ruled(base_claims, sub, auditor, text))
    found.extend(_ruled(gpu_claims, sub, auditor))
    found.extend(_ruled(cpu_claims, sub, auditor))
    found.extend(_ruled(swapped_variants, sub, auditor, text))
    found.extend(_ruled(base_labels, sub, auditor, text, title))
    found.extend(_ruled(flavour_claims, sub, auditor))
    found.extend(_ruled(architecture_claims, sub, auditor, text))
    found.extend(_ruled(gpu_model_claims, sub, auditor, text))
    found.extend(_ruled(version_lists, sub, auditor))
    found.extend(_ruled(linked_release_claims, sub, auditor))
    found.extend(_ruled(restated_versions, sub, auditor))
    found.extend(_ruled(commit_claims, sub, doc, auditor))
    found.extend(_ruled(mounted_scripts, sub, auditor))
    found.extend(_ruled(mounted_code, sub, auditor, text))
    found.extend(_ruled(idle_mounts, sub, auditor, text))
    found.extend(_ruled(moved_data, sub, text, auditor))
    found.extend(_ruled(hidden_paths, sub, auditor, text))
    found.extend(_ruled(provided_claims, sub, auditor))
    found.extend(_ruled(latest_claims, sub, auditor))
    found.extend(_ruled(floating_pins, sub, auditor))
    found.extend(_ruled(pins_never_named, sub, auditor))
    found.extend(_ruled(pinned_claims, sub, auditor))
    found.extend(_ruled(build_flag_claims, sub, auditor))
    found.extend(_ruled(image_tag_claims, sub, auditor))
    found.extend(_ruled(tool_claims, sub, auditor))
    found.extend(_ruled(held_tool_claims, sub, auditor))
    found.extend(_ruled(profile_entry_claims, sub, auditor))
    found.extend(_ruled(built_claims, sub, auditor))
    found.extend(_ruled(prebuilt_claims, sub, auditor))
    found.extend(_ruled(channel_claims, sub, auditor))
    found.extend(_ruled(distribution_claims, sub, auditor))
    found.extend(_ruled(source_link_claims, sub, auditor))
    own_runs = beside_own_runs(doc, auditor)
    made = made_references(doc)
    for fence in sub.fences:
        found.extend(_ruled(audit_fence, fence, auditor, fence.section in own_runs, made))
        found.extend(_ruled(listed_not_installed, fence, auditor))
        intro = fence_intro(doc, fence)
        found.extend(_ruled(assignment_block, fence, intro, auditor))
        said = f"{intro} {heading_of(doc, fence.lines[0][0] if fence.lines else 0)}"
        found.extend(_ruled(described_block, fence, said, auditor))
        found.extend(_ruled(image_build_block, fence, said, auditor))
        found.extend(_ruled(listed_versions, fence, said, auditor))
        found.extend(_ruled(pasted_copies, doc, fence, auditor))
        found.extend(_ruled(every_base, doc, fence, auditor))
    found.extend(_ruled(plain_copies, sub, auditor))
    told = {d.line for d in found}  # (a pin another rule reads from the block is told once)
    blocks = sorted([*sub.fences, *indented_blocks(sub)], key=lambda f: f.lines[0][0] if f.lines else 0)
    found.extend(d for d in _ruled(excerpts, doc, blocks, auditor) if d.line not in told)
    found.extend(_ruled(audit_targets, sub, auditor))
    found.extend(_ruled(toolkit_targets, sub, auditor, forwarded))
    found.extend(_ruled(dead_targets, sub, auditor, shown))
    found.extend(_ruled(titled_stages, sub, auditor))
    found.extend(_ruled(target_columns, sub, auditor))
    found.extend(_ruled(unpassed_required, sub, auditor, text))
    found.extend(_ruled(inert_passed, sub, auditor))
    found.extend(_ruled(written_bases, sub, auditor))
    yield from found


class _BuiltModels:
    """The images a part of the README is about, as its section's build commands build them: each
    distinct (Dockerfile, build args) modelled once; args that cannot build it (`rebuild` gives None)
    leave the image as the Dockerfile declares it."""

    def __init__(
        self,
        models: Sequence[ImageModel],
        rebuild: Callable[[ImageModel, Mapping[str, str]], ImageModel | None] | None,
    ) -> None:
        self.models = models
        self.rebuild = rebuild
        self.cache: dict[Build, ImageModel] = {}

    def built(self, build: Build) -> ImageModel:
        index, args = build
        if not args or self.rebuild is None:
            return self.models[index]
        if build not in self.cache:
            self.cache[build] = self.rebuild(self.models[index], dict(args)) or self.models[index]
        return self.cache[build]

    def of(self, images: frozenset[int], built: frozenset[Build]) -> tuple[ImageModel, ...]:
        """The models of `images`: those a build of `built` builds as built (each build once), the
        others as declared."""
        chosen: list[ImageModel] = []
        held: set[int] = set()
        builds: dict[int, list[Build]] = {}
        for build in built:
            builds.setdefault(build[0], []).append(build)
        for index in sorted(images):
            ones = sorted(builds.get(index, ())) or [(index, ())]
            for build in ones:
                model = self.built(build)
                if id(model) not in held:
                    chosen.append(model)
                    held.add(id(model))
        return tuple(chosen)


_ABSENT = re.compile(r"\binstalls no ([\w.+-]+)")
"""How a finding says the image lacks a component (`… but Dockerfile installs no FastChat`)."""
_UNFOUND_BUILD_FILE = re.compile(
    r"\AREADME builds with (?:-f )?\S+"
    r"(?:, which does not exist where the command runs| in \S+ \(where the cd)"
)
"""How a finding says a build's `-f` is not found from the folder a `cd` led to: `references` (the path
joined to the folder) and `entered_files` (the folder named) both read `cd deploy`, `docker build -f
deploy/jetson/Dockerfile .`."""


def _project_build_texts(
    directory: Path | None, models: Sequence[ImageModel], readme: str, project: Path | None
) -> Callable[[], tuple[tuple[Path, str], ...]]:
    """What reads, when called, the build files and workflows of the README's project (none without its
    folder): the images they tag, for the rules that tell a published image by them."""
    if directory is None:
        return tuple
    top = project_top(directory, project)
    return lambda: (*build_texts(directory, models, readme, top), *workflow_texts(directory, top))


def _merged(found: list[Diagnostic]) -> list[Diagnostic]:
    """`found` sorted by line, one finding per line and message: the same claim read twice (a build
    command in an indented block is a command and a line of prose) is one finding, the surest of them.
    A claim contradicting two images of a family is two findings, one naming each."""
    best: dict[tuple[str, int, str], Diagnostic] = {}
    for finding in found:
        # Two rules may read one list item as a component the image does not install (one listed under
        # an image, one the image is said to provide), or one `-f` as not found after a `cd`: one
        # finding, the first (the one with evidence).
        absent = _ABSENT.search(finding.message)
        said = f"absent {absent[1].lower()}" if absent else finding.message
        key = (finding.path, finding.line, "unfound -f" if _UNFOUND_BUILD_FILE.match(said) else said)
        held = best.get(key)
        if held is None or (held.confidence != CERTAIN and finding.confidence == CERTAIN):
            best[key] = finding
    kept = _script_runs_once(_cut_builds_once(best.values()))
    return _repeats_joined(sorted(undeclared_once(kept), key=lambda d: d.line))


_SCRIPT_RUN = re.compile(r"whose docker run (?:\([^)]*\) )?runs (?:image )?([^\s,:]+)")
"""How the rules on a script the README runs name the image its `docker run` runs."""


def _script_runs_once(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`found` with one finding per README line and image a script's `docker run` runs: two rules (a
    build then the script, `names`; a pull or build then the script, `pulled_runs`) may tell the one
    drift, the first kept."""
    kept: list[Diagnostic] = []
    seen: set[tuple[str, int, str]] = set()
    for finding in found:
        match = _SCRIPT_RUN.search(finding.message)
        key = (finding.path, finding.line, match[1]) if match is not None else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        kept.append(finding)
    return kept


_CUT_BUILD = re.compile(r"README's (?:docker|podman|buildah) (?:buildx )?build \(line (\d+)\) ends at line")
"""How `continuations` says a build's lines lose their context to a missing backslash."""


def _cut_builds_once(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`found` without the finding that a build names no build context when another says why: its
    context is on a line a missing backslash cut off (one slip, told once, with its cause)."""
    found = list(found)
    cut = {(d.path, int(m[1])) for d in found if (m := _CUT_BUILD.match(d.message)) is not None}
    return [d for d in found if not ("names no build context" in d.message and (d.path, d.line) in cut)]


_UNDECLARED = re.compile(
    r"README documents build arg (\S+) but (?:none of (.+) declares it|(\S+) does not declare it)\Z"
)
"""How `arg_claim` says no audited Dockerfile declares a build arg the README documents: the name, then
the Dockerfiles (`none of A, B declares it`) or the one (`A does not declare it`)."""


def undeclared_once(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`found` with one finding per build arg a README line documents and no Dockerfile declares: one rule
    reading the line against the family (`none of A, B, C declares it`) and another against one of its
    images (`B does not declare it`) tell one drift, kept once, the surest (then the one naming more
    Dockerfiles). Two findings naming Dockerfiles neither of which holds the other's stay two."""
    found = list(found)
    groups: dict[tuple[str, int, str], list[tuple[frozenset[str], int]]] = {}
    for index, finding in enumerate(found):
        match = _UNDECLARED.match(finding.message)
        if match is not None:
            files = frozenset(match[2].split(", ")) if match[2] else frozenset((match[3],))
            groups.setdefault((finding.path, finding.line, match[1]), []).append((files, index))
    dropped: set[int] = set()
    for group in groups.values():
        # surest first, then the one naming the most Dockerfiles: each later one a first one covers goes
        group.sort(key=lambda item: (found[item[1]].confidence != CERTAIN, -len(item[0])))
        chosen: list[frozenset[str]] = []
        for files, index in group:
            if any(files <= other or other <= files for other in chosen):
                dropped.add(index)
            else:
                chosen.append(files)
    return [finding for index, finding in enumerate(found) if index not in dropped]


def _repeats_joined(found: list[Diagnostic]) -> list[Diagnostic]:
    """`found` (sorted by line) with a finding a README earns on several lines word for word (one port
    published by four `docker run` lines, one wrong release in the title and two lists) told once, at
    its first line: `…; also at lines 10, 11`. One drift is one finding; a rule that already joins its
    lines makes a message no other line repeats."""
    lines: dict[tuple[str, str, str, str], list[int]] = {}
    for finding in found:
        if finding.line:
            lines.setdefault((finding.path, finding.message, finding.rule, finding.confidence), []).append(
                finding.line
            )
    joined: list[Diagnostic] = []
    for finding in found:
        key = (finding.path, finding.message, finding.rule, finding.confidence)
        at = lines.get(key) if finding.line else None
        if at is None or len(at) == 1:
            joined.append(finding)
        elif at[0] == finding.line:
            joined.append(replace(finding, message=finding.message + also_at(at)))
    return joined
