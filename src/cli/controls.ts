import { InvalidArgumentError, Option, type Command } from 'commander';
import { addressGlobProblem } from '../model/address-glob.js';
import type { DesiredState } from '../reconcile/index.js';
import { wholeNumber } from './settings.js';

/**
 * The operator's controls on the command line (issue 31): `--target ADDRESS` (repeatable, globs)
 * on plan, apply and drift, and `--allow-updates N` on apply (what `policy.maxUpdates` yields to).
 */
export type ControlOptions = { targets?: string[]; allowUpdates?: number };

/** One `--target` more: checked here, so a bad glob names the flag before any work. */
function collectTarget(value: string, previous: string[] | undefined): string[] {
  const problem = addressGlobProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return [...(previous ?? []), value.trim()];
}

/** Adds `--target` (and, for apply, `--allow-updates`). */
export function withControls(cmd: Command, apply = false): Command {
  cmd.addOption(
    new Option(
      '--target <address>',
      'plan only this resource (an address or glob such as sites/Docs/**, organization prefix optional) and what it depends on; repeatable',
    ).argParser(collectTarget),
  );
  if (apply)
    cmd.option(
      '--allow-updates <n>',
      'allow a plan with up to N updates past policy.maxUpdates',
      wholeNumber(0),
      0,
    );
  return cmd;
}

export function controlOptions(o: Record<string, unknown>): ControlOptions {
  return {
    ...(Array.isArray(o['target']) ? { targets: o['target'] as string[] } : {}),
    ...(o['allowUpdates'] !== undefined ? { allowUpdates: Number(o['allowUpdates']) } : {}),
  };
}

/** The desired state restricted to `targets` (a partial plan); as it is without them. */
export function targeted(desired: DesiredState, targets: readonly string[] | undefined): DesiredState {
  return targets && targets.length > 0 ? { ...desired, targets: [...targets] } : desired;
}
