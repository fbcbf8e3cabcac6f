#!/usr/bin/env bash
# The script of docgen's GitHub Action (action.yml): `check` fails on drift with annotations and a job
# summary naming what changed; `sync` regenerates the blocks and commits them to the current branch (for
# a bot's pull request). Runs anywhere with git and docgen on PATH; tests/test_action.py runs it on a
# temporary repository with GITHUB_* variables pointing at temporary files.
#
# Inputs (environment): INPUT_MODE (check|sync), INPUT_ARGS (extra arguments for docgen check),
# INPUT_BASE (revision the job summary compares with), INPUT_COMMIT_MESSAGE, INPUT_PUSH (true|false),
# INPUT_WORKING_DIRECTORY. Outputs ($GITHUB_OUTPUT): out-of-date, changed-files, committed, commit.
set -uo pipefail

mode="${INPUT_MODE:-check}"
cd "${INPUT_WORKING_DIRECTORY:-.}" || exit 2
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
output="${GITHUB_OUTPUT:-/dev/null}"
docgen="${DOCGEN:-docgen}"

# The revision the summary compares with: the input, else the pull request's base branch, else HEAD^.
base="${INPUT_BASE:-}"
if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
  base="origin/${GITHUB_BASE_REF}"
fi
if [ -z "$base" ]; then
  base="HEAD^"
fi

what_changed() {  # $1: the revision to compare the working tree with
  local notes
  echo >>"$summary"
  # `--`: a base that looks like an option (`-h`, `--config=…`) is still a revision
  if notes=$("$docgen" changes -- "$1" 2>&1); then
    printf '%s\n' "$notes" | sed 's/^##/###/' >>"$summary"
  else
    printf '\nWhat changed could not be read: `%s`\n' "$notes" >>"$summary"
  fi
}

case "$mode" in
  check)
    # `--full` renders every block anew: a plain check trusts the fingerprints in the README and the
    # settings record in .docgen_cache/, files a pull request can forge (or commit); CI=true does the
    # same, `--full` says it here too. `set -f`: INPUT_ARGS is a list of words, never a glob.
    set -f
    # shellcheck disable=SC2086  # INPUT_ARGS is a list of words
    report=$("$docgen" check --full ${INPUT_ARGS:-} 2>&1)
    code=$?
    set +f
    printf '%s\n' "$report"  # with GITHUB_ACTIONS=true it holds the ::error annotations
    {
      echo "## docgen check"
      echo
      if [ "$code" -eq 0 ]; then
        echo "The generated documentation is up to date."
      elif [ "$code" -eq 1 ]; then
        echo "The generated documentation is **out of date**: run \`docgen sync\` and commit the result"
        echo "(or let this action do it on a bot's pull request with \`mode: sync\`)."
        echo
        # names in these lines come from the Dockerfile: Markdown punctuation is escaped, so that
        # `[x](javascript:…)` or `<img …>` stays text in the summary
        printf '%s\n' "$report" | grep -E ' is out of date$|: changed since ' \
          | sed -e 's/[][\\`*_{}()<>#+!|~&]/\\&/g' -e 's/^/- /'
      else
        echo "docgen could not check the documentation:"
        echo
        printf '%s\n' "$report" | sed 's/^/    /'
      fi
    } >>"$summary"
    if [ "$code" -le 1 ]; then
      what_changed "$base"
    fi
    echo "out-of-date=$([ "$code" -eq 1 ] && echo true || echo false)" >>"$output"
    exit "$code"
    ;;
  sync)
    branch="${GITHUB_HEAD_REF:-${GITHUB_REF_NAME:-}}"
    if [ "${INPUT_PUSH:-true}" = "true" ] && [ -z "$branch" ]; then
      echo "docgen action: no branch to push to (GITHUB_HEAD_REF and GITHUB_REF_NAME are empty)" >&2
      exit 2
    fi
    report=$("$docgen" sync 2>&1)
    code=$?
    printf '%s\n' "$report"
    if [ "$code" -ne 0 ]; then
      { echo "## docgen sync"; echo; echo "docgen could not regenerate the documentation:"; echo;
        printf '%s\n' "$report" | sed 's/^/    /'; } >>"$summary"
      exit "$code"
    fi
    mapfile -t updated < <(printf '%s\n' "$report" | sed -n 's/: updated$//p')
    changed=()
    for file in "${updated[@]}"; do
      if [ -n "$(git status --porcelain -- "$file")" ]; then
        changed+=("$file")
      fi
    done
    echo "changed-files=${changed[*]}" >>"$output"
    if [ "${#changed[@]}" -eq 0 ]; then
      { echo "## docgen sync"; echo; echo "The generated documentation was already up to date."; } >>"$summary"
      echo "committed=false" >>"$output"
      exit 0
    fi
    git add -- "${changed[@]}" || exit 2
    git -c user.name="${GIT_AUTHOR_NAME:-github-actions[bot]}" \
      -c user.email="${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}" \
      commit -q -m "${INPUT_COMMIT_MESSAGE:-docs: regenerate with docgen sync}" -- "${changed[@]}" || exit 2
    commit=$(git rev-parse HEAD)
    {
      echo "## docgen sync"
      echo
      echo "Regenerated and committed ${commit:0:12}:"
      echo
      printf -- '- %s\n' "${changed[@]}"
    } >>"$summary"
    what_changed "$base"
    echo "committed=true" >>"$output"
    echo "commit=$commit" >>"$output"
    if [ "${INPUT_PUSH:-true}" = "true" ]; then
      git push -q origin "HEAD:refs/heads/$branch" || exit 2
    fi
    ;;
  *)
    echo "docgen action: mode must be check or sync, not '$mode'" >&2
    exit 2
    ;;
esac
