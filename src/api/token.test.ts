import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_FILE_BYTES, readToken, TokenError } from './token.js';

const dir = () => mkdtempSync(join(tmpdir(), 'docsync-token-'));

/** The error `readToken` throws for this file, checked to name the variable and never the content. */
function refusal(file: string): TokenError {
  try {
    readToken({ DOCSYNC_TOKEN_FILE: file });
  } catch (error) {
    expect(error).toBeInstanceOf(TokenError);
    const e = error as TokenError;
    expect(e.code).toBe('token-file');
    expect(e.message).toMatch(/^DOCSYNC_TOKEN_FILE /);
    expect(e.message).not.toContain('secret-token');
    return e;
  }
  throw new Error(`${file} was accepted`);
}

describe('DOCSYNC_TOKEN_FILE', () => {
  it('reads a regular file (through a symlink, as Kubernetes mounts secrets), trailing newline trimmed', () => {
    const d = dir();
    writeFileSync(join(d, 'token'), 'secret-token\r\n');
    symlinkSync(join(d, 'token'), join(d, 'link'));
    expect(readToken({ DOCSYNC_TOKEN_FILE: join(d, 'token') })).toBe('secret-token');
    expect(readToken({ DOCSYNC_TOKEN_FILE: join(d, 'link') })).toBe('secret-token');
  });

  it('refuses a FIFO at once, without blocking on it', () => {
    const fifo = join(dir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(refusal(fifo).message).toMatch(/not a regular file/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses /dev/zero without reading it', () => {
    expect(refusal('/dev/zero').message).toMatch(/not a regular file/);
  });

  it('refuses a directory', () => {
    expect(refusal(dir()).message).toMatch(/not a regular file|cannot be read/);
  });

  it('refuses a 300 MB (sparse) file from its size, reading nothing', () => {
    const big = join(dir(), 'big');
    execFileSync('truncate', ['-s', '300M', big]);
    const before = process.memoryUsage().rss;
    expect(refusal(big).message).toMatch(/larger than 16384 bytes/);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('accepts up to the limit; refuses one byte more; refuses an empty or missing file', () => {
    const d = dir();
    writeFileSync(join(d, 'max'), 'x'.repeat(MAX_TOKEN_FILE_BYTES));
    expect(readToken({ DOCSYNC_TOKEN_FILE: join(d, 'max') })).toHaveLength(MAX_TOKEN_FILE_BYTES);
    writeFileSync(join(d, 'over'), 'x'.repeat(MAX_TOKEN_FILE_BYTES + 1));
    expect(refusal(join(d, 'over')).message).toMatch(/larger than/);
    writeFileSync(join(d, 'empty'), '\n');
    expect(refusal(join(d, 'empty')).message).toMatch(/is empty/);
    mkdirSync(join(d, 'sub'));
    expect(refusal(join(d, 'sub', 'missing')).message).toMatch(/cannot be opened \(ENOENT\)/);
  });

  it('no token at all names both variables', () => {
    expect(() => readToken({})).toThrow(/set DOCSYNC_TOKEN or DOCSYNC_TOKEN_FILE/);
  });
});
