#!/usr/bin/env bash
# The GitHub Action's one step (action.yml): run one docsync command from the action's checkout,
# write the step outputs (has-changes, exit-code, plan-file, report-file) and the job summary.
# Inputs arrive as INPUT_* variables; the API token as DOCSYNC_TOKEN / DOCSYNC_TOKEN_FILE or INPUT_TOKEN.
set -uo pipefail

root="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
# DOCSYNC_ENTRY lets the tests run the TypeScript entry point; the action runs the build.
entry="${DOCSYNC_ENTRY:-$root/dist/cli.js}"
docsync() { node "$entry" "$@"; }

command="${INPUT_COMMAND:-plan}"
config="${INPUT_CONFIG:-config}"
format="${INPUT_FORMAT:-markdown}"
out_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/docsync-${GITHUB_RUN_ID:-local}-$$"
mkdir -p "$out_dir"
output() { [ -n "${GITHUB_OUTPUT:-}" ] && printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; return 0; }

if [ -n "${INPUT_TOKEN:-}" ]; then export DOCSYNC_TOKEN="$INPUT_TOKEN"; fi
unset INPUT_TOKEN

args=(--config "$config")
if [ -n "${INPUT_API_URL:-}" ]; then args+=(--api-url "$INPUT_API_URL"); fi
if [ -n "${INPUT_API_FLAVOR:-}" ]; then args+=(--api-flavor "$INPUT_API_FLAVOR"); fi

case "$format" in
  markdown) ext=md ;;
  json) ext=json ;;
  text) ext=txt ;;
  *) echo "::error::docsync action: format must be markdown, text or json, not '$format'"; exit 1 ;;
esac
report="$out_dir/report.$ext"
plan_file="$out_dir/plan.json"

code=0
case "$command" in
  validate)
    docsync validate --config "$config" || code=$?
    ;;
  plan)
    docsync plan "${args[@]}" --format "$format" --out "$plan_file" --detailed-exitcode >"$report" || code=$?
    ;;
  drift)
    docsync drift "${args[@]}" --format "$format" >"$report" || code=$?
    ;;
  apply)
    docsync apply "${args[@]}" --yes --allow-deletes "${INPUT_ALLOW_DELETES:-0}" --format "$format" >"$report" || code=$?
    ;;
  *)
    echo "::error::docsync action: command must be validate, plan, drift or apply, not '$command'"
    exit 1
    ;;
esac

output exit-code "$code"
if [ -f "$report" ]; then
  cat "$report"
  output report-file "$report"
  if [ "$format" = markdown ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$report" >>"$GITHUB_STEP_SUMMARY"; fi
fi
if [ "$command" = plan ] && [ -f "$plan_file" ]; then output plan-file "$plan_file"; fi
if [ "$command" = plan ] || [ "$command" = drift ]; then
  case "$code" in
    0) output has-changes false ;;
    2) output has-changes true ;;
  esac
fi

if [ "$command" = plan ] && [ "${INPUT_COMMENT:-false}" = true ] && [ -f "$plan_file" ]; then
  comment_args=("${args[@]}" --plan-file "$plan_file")
  if [ -n "${INPUT_BASE_CONFIG:-}" ]; then comment_args+=(--base-config "$INPUT_BASE_CONFIG"); fi
  if [ -n "${ARTIFACT_URL:-}" ]; then comment_args+=(--artifact-url "$ARTIFACT_URL"); fi
  GITHUB_TOKEN="${INPUT_GITHUB_TOKEN:-${GITHUB_TOKEN:-}}" docsync comment "${comment_args[@]}" || exit $?
fi

if [ "$code" = 2 ]; then
  if [ "${INPUT_FAIL_ON_CHANGES:-false}" = true ]; then
    echo "::error::docsync $command: live state differs from the configuration"
    exit 2
  fi
  exit 0
fi
exit "$code"
