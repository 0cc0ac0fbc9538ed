import { describe, expect, it } from 'vitest';
import type { DesiredGrant } from '../model/grants.js';
import { checkAccessRules, type AccessRuleName, type GrantHolder, type RulesInput } from './rules.js';

/** Places are plain key paths here; the config passes file positions. */
const holder = (
  noun: GrantHolder<string>['noun'],
  name: string,
  access?: DesiredGrant[],
  parent?: string | null,
): GrantHolder<string> => ({
  noun,
  name,
  parent,
  access,
  at: `${noun}:${name}`,
  grantAt: (i) => `${noun}:${name}.access[${i}]`,
});

const org: Omit<RulesInput<string>, 'rules'> = {
  holders: [
    holder('collection', 'Product', [{ team: 'Platform', role: 'admin' }]),
    holder('space', 'space_api', [{ team: 'Support', role: 'edit' }], 'Product'),
    holder('space', 'space_hand', [
      { member: 'ann@acme.com', role: 'admin' },
      { team: 'Contractors', role: 'edit' },
      { member: 'Guest@x.com', role: 'create' },
      { team: 'Support', role: 'admin' },
    ]),
    holder('space', 'space_bare'),
    holder('site', 'Docs', [{ team: 'Support', role: 'review' }]),
  ],
  members: [
    { user: 'ann@acme.com', role: 'edit' },
    { user: 'guest@x.com', role: null },
  ],
  teams: [{ title: 'Contractors', members: ['bob@acme.com', 'guest@x.com'] }, { title: 'Support' }],
};

const run = (rule: AccessRuleName, max?: number) =>
  checkAccessRules({ ...org, rules: [{ rule, max, at: 'policy.rules[0]' }] }).map(
    (v) => `${v.at}: ${v.message}`,
  );

describe('access rules', () => {
  it.each<[AccessRuleName, number | undefined, string[]]>([
    [
      'requireAdminTeam',
      undefined,
      [
        // space_api has its admin team through collection Product; space_hand's admin is a member.
        'space:space_bare: space space_bare has no team with admin on it or on a collection above it (it has no `access` list)',
      ],
    ],
    [
      'teamsOnly',
      undefined,
      [
        'space:space_hand.access[0]: space space_hand grants admin to member ann@acme.com; only teams may be granted',
        'space:space_hand.access[2]: space space_hand grants create to member Guest@x.com; only teams may be granted',
      ],
    ],
    [
      'noEditForGuests',
      undefined,
      [
        'space:space_hand.access[1]: space space_hand gives edit to guest guest@x.com through team Contractors; guests may have at most review',
        'space:space_hand.access[2]: space space_hand gives create to guest Guest@x.com; guests may have at most review',
      ],
    ],
    [
      'maxAdmins',
      1,
      [
        'space:space_hand.access[3]: space space_hand has 2 admin grants (member ann@acme.com, team Support); at most 1 allowed',
      ],
    ],
    ['maxAdmins', 2, []],
  ])('%s (max %s)', (rule, max, want) => expect(run(rule, max)).toEqual(want));

  it('names the rule and where it is written', () => {
    const [v] = checkAccessRules({ ...org, rules: [{ rule: 'teamsOnly', at: 'policy.rules[3]' }] });
    expect(v).toMatchObject({ rule: 'teamsOnly', ruleAt: 'policy.rules[3]' });
  });

  it('requireAdminTeam: the team of a collection above, through nested collections', () => {
    const input: RulesInput<string> = {
      rules: [{ rule: 'requireAdminTeam', at: 'r' }],
      holders: [
        holder('collection', 'Top', [{ team: 'Owners', role: 'admin' }]),
        holder('collection', 'Mid', [], 'Top'),
        holder('space', 's1', undefined, 'Mid'),
        holder('space', 's2', [{ team: 'Owners', role: 'edit' }], null),
      ],
    };
    expect(checkAccessRules(input).map((v) => v.at)).toEqual(['space:s2']);
  });
});
