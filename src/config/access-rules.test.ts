import { describe, expect, it } from 'vitest';
import { checkAccessRuleIssues } from './access-rules.js';
import { formatIssue } from './issues.js';
import { loadConfigFromBuffers } from './load.js';
import type { ConfigFile } from './schema.js';
import { parseYamlFile } from './yaml-file.js';

/** A file as the checks see it after the schema (the `access` lists are the grant kinds' key). */
function parsed(file: string, text: string) {
  const yaml = parseYamlFile(file, Buffer.from(text));
  if (Array.isArray(yaml)) throw new Error(JSON.stringify(yaml));
  return { yaml, config: yaml.value as ConfigFile };
}

const CONFIG = `organization: org_a
policy:
  rules:
    - rule: teamsOnly
    - rule: maxAdmins
      max: 1
spaces:
  - id: space_api
    access:
      - { team: Platform, role: admin }
      - { member: ann@acme.com, role: admin }
`;

describe('access rules in the config', () => {
  it('each violation is an error at its grant (file:line:column), naming the rule and where it is written', () => {
    const issues = checkAccessRuleIssues([parsed('config/org.yaml', CONFIG)]).map(formatIssue);
    expect(issues).toEqual([
      'config/org.yaml:11:9: error[access-rule] spaces[0].access[1]: space space_api grants admin to member ann@acme.com; only teams may be granted (rule teamsOnly: policy.rules[0] at config/org.yaml:4:7)',
      'config/org.yaml:11:9: error[access-rule] spaces[0].access[1]: space space_api has 2 admin grants (team Platform, member ann@acme.com); at most 1 allowed (rule maxAdmins: policy.rules[1] at config/org.yaml:5:7)',
    ]);
  });

  it('the rules of one organization apply to all of its files', () => {
    const other = parsed('config/b.yaml', 'organization: org_a\nspaces:\n  - id: space_b\n');
    const rules = parsed(
      'config/a.yaml',
      'organization: org_a\npolicy:\n  rules: [{ rule: requireAdminTeam }]\n',
    );
    const elsewhere = parsed('config/c.yaml', 'organization: org_c\nspaces:\n  - id: space_c\n');
    expect(checkAccessRuleIssues([rules, other, elsewhere]).map(formatIssue)).toEqual([
      'config/b.yaml:3:5: error[access-rule] spaces[0]: space space_b has no team with admin on it or on a collection above it (it has no `access` list) (rule requireAdminTeam: policy.rules[0] at config/a.yaml:3:11)',
    ]);
  });

  it('validate reports them, and a rule that is not one is a located schema error', () => {
    const load = (text: string) =>
      loadConfigFromBuffers([{ file: 'config/org.yaml', bytes: Buffer.from(text) }]);
    const broken = load(
      'organization: org_a\npolicy:\n  rules: [{ rule: requireAdminTeam }]\nspaces:\n  - id: space_1\n    title: One\n',
    );
    expect(broken.desired).toBeNull();
    expect(broken.issues.map((i) => `${i.line}:${i.column} ${i.code} ${i.path}`)).toEqual([
      '5:5 access-rule spaces[0]',
    ]);
    const unknown = load('organization: org_a\npolicy:\n  rules: [{ rule: noAdmins }]\n');
    expect(unknown.issues.map((i) => `${i.line}:${i.column} ${i.path}`)).toEqual([
      '3:19 policy.rules[0].rule',
    ]);
    const noMax = load('organization: org_a\npolicy:\n  rules: [{ rule: maxAdmins }]\n');
    expect(noMax.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'policy.rules[0].max: maxAdmins needs max (the most admin grants per object)',
    ]);
    expect(load('organization: org_a\npolicy:\n  rules: [{ rule: teamsOnly }]\n').desired).not.toBeNull();
  });
});
