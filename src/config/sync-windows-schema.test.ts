import { describe, expect, it } from 'vitest';
import { loadConfigFromBuffers } from './load.js';

const load = (yaml: string) => loadConfigFromBuffers([{ file: 'org.yaml', bytes: Buffer.from(yaml) }]);

describe('suspended and policy.syncWindows in the config', () => {
  it('normalizes windows (UTC, manualSync false by default) and suspension', () => {
    const result = load(
      [
        'organization: org_a',
        'suspended: true',
        'policy:',
        '  syncWindows:',
        '    - { kind: deny, schedule: "0 22 * * *", duration: 1h30m }',
        '    - { kind: allow, schedule: "0 9 * * mon-fri", duration: 8h, manualSync: true, timeZone: Europe/Paris }',
        '',
      ].join('\n'),
    );
    expect(result.issues).toEqual([]);
    const org = result.desired!.organizations[0]!;
    expect(org.suspended).toBe(true);
    expect(org.policy.syncWindows).toEqual([
      {
        kind: 'deny',
        schedule: '0 22 * * *',
        duration: '1h30m',
        durationMs: 5_400_000,
        manualSync: false,
        timeZone: 'UTC',
      },
      {
        kind: 'allow',
        schedule: '0 9 * * mon-fri',
        duration: '8h',
        durationMs: 28_800_000,
        manualSync: true,
        timeZone: 'Europe/Paris',
      },
    ]);
  });

  it.each([
    ['schedule: "0 25 * * *"', 'policy.syncWindows[0].schedule', /hour: 25 is out of range/],
    ['schedule: "0 22 * *"', 'policy.syncWindows[0].schedule', /has 4 field/],
    ['duration: 90s', 'policy.syncWindows[0].duration', /not a duration such as 30m/],
    ['timeZone: Mars/Olympus', 'policy.syncWindows[0].timeZone', /not a known time zone/],
    ['kind: maybe', 'policy.syncWindows[0].kind', /allow|deny/],
  ])('%s is a located error', (override, path, message) => {
    const fields = { kind: 'deny', schedule: '"0 22 * * *"', duration: '1h' } as Record<string, string>;
    const [key, value] = override.split(': ') as [string, string];
    fields[key] = value;
    const yaml = [
      'organization: org_a',
      'policy:',
      '  syncWindows:',
      ...Object.entries(fields).map(([k, v], i) => `${i === 0 ? '    - ' : '      '}${k}: ${v}`),
      '',
    ].join('\n');
    const result = load(yaml);
    expect(result.desired).toBeNull();
    const issue = result.issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(result.issues)).toBeDefined();
    expect(issue!.message).toMatch(message);
    expect(issue!.file).toBe('org.yaml');
    expect(issue!.line).toBeGreaterThanOrEqual(4);
    expect(issue!.column).toBeGreaterThan(0);
  });
});
