import { checkAccessRules, type GrantHolder, type RuleEntry } from '../access/rules.js';
import type { GrantEntry } from '../kinds/grants.js';
import type { DesiredGrant } from '../model/grants.js';
import { formatPath, type ConfigIssue } from './issues.js';
import { filesByOrganization, type ParsedConfig } from './semantic.js';
import { locate, type YamlFile } from './yaml-file.js';

type Place = { yaml: YamlFile; path: (string | number)[] };

/**
 * The access rules of `policy.rules` (src/access/rules.ts) over each organization's files: one
 * located error per violation, at the entry or grant that breaks the rule, naming the rule and
 * where it is written. Offline: the config alone.
 */
export function checkAccessRuleIssues(files: readonly ParsedConfig[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const group of filesByOrganization(files).values()) {
    const rules: RuleEntry<Place>[] = group.flatMap(({ yaml, config }) =>
      (config.policy?.rules ?? []).map((r, i) => ({
        rule: r.rule,
        max: r.max,
        at: { yaml, path: ['policy', 'rules', i] },
      })),
    );
    if (rules.length === 0) continue;
    const holders = group.flatMap(({ yaml, config }) => [
      ...(config.collections ?? []).map((c, i) =>
        holder(yaml, ['collections', i], 'collection', c.title, c, c.parent),
      ),
      ...(config.spaces ?? []).map((s, i) => holder(yaml, ['spaces', i], 'space', s.id, s, s.parent)),
      ...(config.sites ?? []).map((s, i) => holder(yaml, ['sites', i], 'site', s.title, s)),
    ]);
    const violations = checkAccessRules({
      rules,
      holders,
      members: group.flatMap(({ config }) => config.members ?? []),
      teams: group.flatMap(({ config }) =>
        (config.teams ?? []).map((t) => ({
          title: t.title,
          members: t.members?.map((m) => (typeof m === 'string' ? m : m.user)),
        })),
      ),
    });
    for (const v of violations) {
      const ruleAt = locate(v.ruleAt.yaml, v.ruleAt.path);
      issues.push({
        severity: 'error',
        code: 'access-rule',
        file: v.at.yaml.file,
        ...locate(v.at.yaml, v.at.path),
        path: formatPath(v.at.path),
        message: `${v.message} (rule ${v.rule}: ${formatPath(v.ruleAt.path)} at ${v.ruleAt.yaml.file}:${ruleAt.line}:${ruleAt.column})`,
      });
    }
  }
  return issues;
}

/**
 * A config file's grant as the rules take it: its subject is the team or else the member (the
 * schema refuses an entry that names both or neither; the list keeps its indexes for locations).
 */
const grantOf = (g: GrantEntry): DesiredGrant =>
  g.team !== undefined ? { team: g.team, role: g.role } : { member: g.member ?? '', role: g.role };

function holder(
  yaml: YamlFile,
  path: (string | number)[],
  noun: GrantHolder<Place>['noun'],
  name: string,
  entry: { access?: readonly GrantEntry[] | undefined },
  parent?: string | null,
): GrantHolder<Place> {
  return {
    noun,
    name,
    parent,
    access: entry.access?.map(grantOf),
    at: { yaml, path },
    grantAt: (i) => ({ yaml, path: [...path, 'access', i] }),
  };
}
