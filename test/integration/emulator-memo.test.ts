import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { baseSeed, call, withEmulator } from '../helpers/emulator.js';

let emu: Emulator;
afterEach(async () => emu?.close());

const org = '/orgs/org_t';
const teamsOf = async (e: Emulator, teamId: string) =>
  Object.fromEntries(
    (await call(e, 'GET', `${org}/teams/${teamId}/members`)).body.items.map((m: any) => [
      m.organization.id,
      m.organization.teams,
    ]),
  );

describe('emulator: answers built from remembered indexes follow every change', () => {
  it('team lookups and members’ team counts follow writes through the API', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const one = (await call(emu, 'PUT', `${org}/teams`, { title: 'One', members: ['user_a', 'user_b'] }))
      .body;
    expect(await teamsOf(emu, one.id)).toEqual({ user_a: 1, user_b: 1 });
    const two = (await call(emu, 'PUT', `${org}/teams`, { title: 'Two', members: ['user_a'] })).body;
    expect(await teamsOf(emu, two.id)).toEqual({ user_a: 2 });
    expect(await teamsOf(emu, one.id)).toEqual({ user_a: 2, user_b: 1 });
    await call(emu, 'PUT', `${org}/teams/${two.id}/members`, { add: ['user_b'], remove: ['user_a'] });
    expect(await teamsOf(emu, one.id)).toEqual({ user_a: 1, user_b: 2 });
    expect((await call(emu, 'DELETE', `${org}/teams/${one.id}`)).status).toBe(204);
    expect((await call(emu, 'GET', `${org}/teams/${one.id}/members`)).status).toBe(404);
    expect(await teamsOf(emu, two.id)).toEqual({ user_b: 1 });
  });

  it('follows the state changed in place by a test, and remembers again after a reset', async () => {
    emu = await withEmulator({ seed: baseSeed() });
    const one = (await call(emu, 'PUT', `${org}/teams`, { title: 'One', members: ['user_a'] })).body;
    expect(await teamsOf(emu, one.id)).toEqual({ user_a: 1 });
    const state = emu.state();
    const orgState = state.organizations[0]!;
    orgState.teams.push({
      id: 'team_x',
      title: 'X',
      createdAt: '',
      members: [{ userId: 'user_a', role: 'member' }],
    });
    expect(await teamsOf(emu, one.id)).toEqual({ user_a: 2 });
    expect(await teamsOf(emu, 'team_x')).toEqual({ user_a: 2 });
    orgState.teams[1]!.members[0]!.userId = 'user_c';
    expect(await teamsOf(emu, 'team_x')).toEqual({ user_c: 1 });
    const site = (await call(emu, 'POST', `${org}/sites`, { title: 'Docs' })).body;
    orgState.sites[0]!.id = 'site_renamed';
    expect((await call(emu, 'GET', `${org}/sites/${site.id}/sections`)).status).toBe(404);
    expect((await call(emu, 'GET', `${org}/sites/site_renamed/sections`)).status).toBe(200);

    emu.reset(baseSeed());
    const three = (await call(emu, 'PUT', `${org}/teams`, { title: 'Three', members: ['user_d'] })).body;
    expect(await teamsOf(emu, three.id)).toEqual({ user_d: 1 });
    expect((await call(emu, 'GET', `${org}/teams/team_x/members`)).status).toBe(404);
  });
});
