import { join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childPath, shownPaths } from './config-paths.js';

describe('childPath', () => {
  it.each([
    ['config', 'a.yaml'],
    ['config/', 'a.yaml'],
    ['./config', 'a.yaml'],
    ['config/.', 'a.yaml'],
    ['config//sub', 'a.yaml'],
    ['.', 'a.yaml'],
    ['./', 'a.yaml'],
    ['/', 'etc'],
    ['/abs/config', 'sites'],
    ['../up/config', 'a.yml'],
  ])('answers join(%j, %j) under the normalized parent', (parent, name) => {
    expect(childPath(normalize(parent), name)).toBe(join(parent, name));
  });
});

describe('shownPaths', () => {
  const cwd = process.cwd();
  const dirs = [
    'config',
    './config/',
    'config/sub',
    '.',
    './',
    resolve('config'),
    '/',
    resolve('..'),
    '../elsewhere',
  ];
  const cwds = [
    cwd,
    resolve(cwd, 'config'),
    resolve(cwd, 'config/sub/deeper'),
    resolve(cwd, '..'),
    '/',
    '/tmp',
  ];
  const rests = ['a.yaml', 'sub/b.yml', 'sub/deeper/c.yaml', 'a..yaml', '.hidden.yaml', 'x/..y/z.yaml'];
  for (const dir of dirs)
    for (const from of cwds)
      it(`shows ${dir}'s files from ${from} as relative() does`, () => {
        const shown = shownPaths(dir, from);
        const walked = rests.map((rest) =>
          rest.split('/').reduce((p, name) => childPath(p, name), normalize(dir)),
        );
        // Paths the walk did not make take relative()'s way, with the same answer.
        const others = [
          dir,
          join(dir, '..', 'x.yaml'),
          resolve(dir, 'a.yaml'),
          `${dir}//a.yaml`,
          'elsewhere/a.yaml',
        ];
        for (const file of [...walked, ...others])
          expect(shown(file), file).toBe(relative(from, file) || file);
      });
});
