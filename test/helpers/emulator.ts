import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ApiClient } from '../../src/api/client.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js';

export const TOKEN = 'test-token-0123456789';

export function exampleSeed(): unknown {
  return parse(readFileSync(new URL('../../examples/emulator-seed.yaml', import.meta.url), 'utf8'));
}

/** A small organization with members and spaces, the API cannot create them. */
export function baseSeed(spaces = 8): Record<string, unknown> {
  return {
    organizations: [
      {
        id: 'org_t',
        title: 'Test Org',
        members: [
          { id: 'user_a', email: 'a@example.com', displayName: 'A', role: 'admin' },
          { id: 'user_b', email: 'b@example.com', displayName: 'B', role: 'edit' },
          { id: 'user_c', email: 'c@example.com', displayName: 'C', role: 'read' },
          { id: 'user_d', email: 'd@example.com', displayName: 'D', role: 'read' },
        ],
        spaces: Array.from({ length: spaces }, (_, i) => ({ id: `space_${i + 1}`, title: `Space ${i + 1}` })),
      },
    ],
  };
}

export async function withEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ token: TOKEN, ...options });
}

export function client(
  emulator: Emulator,
  extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {},
): ApiClient {
  return new ApiClient({ apiUrl: emulator.url, token: TOKEN, ...extra });
}

/** Raw HTTP to the emulator's API. */
export async function call(
  emulator: Emulator,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${emulator.url}/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

export function writes(emulator: Emulator): { method: string; path: string; status: number }[] {
  return emulator.requests().filter((r) => r.method !== 'GET');
}
