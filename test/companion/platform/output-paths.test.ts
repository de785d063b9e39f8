/**
 * Where the companion writes: the atomic writer replaces regular files only (a rename replaced
 * /dev/full with a JSON file when `train --out /dev/full` ran as root), and directories are made
 * one level at a time (Node's recursive mkdir spins forever on /proc). Real files, a real named
 * pipe standing in for a device node: replacing a real device in a test would break the machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../companion/platform/atomic-file.ts';
import { ensureDirectory, OutputPathError } from '../../../companion/platform/output-paths.ts';
import { tempDir } from '../crawl/crawl-test-helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function scratch(): string {
  const { dir, cleanup } = tempDir('linkscent-output-');
  cleanups.push(cleanup);
  return dir;
}

describe('writeFileAtomic', () => {
  it('makes a new file and replaces a regular one', () => {
    const dir = scratch();
    const path = join(dir, 'model.json');
    writeFileAtomic(path, 'one');
    writeFileAtomic(path, 'two');
    expect(readFileSync(path, 'utf8')).toBe('two');
  });

  it('refuses to replace a named pipe, in one line, and leaves it a pipe', () => {
    const dir = scratch();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(() => writeFileAtomic(fifo, '{}')).toThrow(new OutputPathError(`cannot write ${fifo}: it is a named pipe, not a regular file`));
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('refuses a directory, and a link to a missing file', () => {
    const dir = scratch();
    mkdirSync(join(dir, 'sub'));
    expect(() => writeFileAtomic(join(dir, 'sub'), '{}')).toThrow(/^cannot write .*sub: it is a directory, not a regular file$/);
    symlinkSync(join(dir, 'nowhere.json'), join(dir, 'dangling'));
    expect(() => writeFileAtomic(join(dir, 'dangling'), '{}')).toThrow(/^cannot write .*dangling: it is a symbolic link to a file that does not exist$/);
    expect(existsSync(join(dir, 'nowhere.json'))).toBe(false);
  });

  it('writes through a symbolic link to a regular file: the link stays a link', () => {
    const dir = scratch();
    const real = join(dir, 'real.json');
    writeFileSync(real, 'old');
    symlinkSync(real, join(dir, 'link.json'));
    writeFileAtomic(join(dir, 'link.json'), 'new');
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.json'))).toBe(real);
    expect(readFileSync(real, 'utf8')).toBe('new');
  });

  it('names the path when its folder does not exist', () => {
    const dir = scratch();
    expect(() => writeFileAtomic(join(dir, 'no/such/m.json'), '{}')).toThrow(/^cannot write .*m\.json: its folder does not exist$/);
  });
});

describe('ensureDirectory', () => {
  it('makes the missing levels, and accepts one that exists', () => {
    const dir = scratch();
    ensureDirectory(join(dir, 'a/b/c'));
    ensureDirectory(join(dir, 'a/b/c'));
    expect(statSync(join(dir, 'a/b/c')).isDirectory()).toBe(true);
  });

  it('refuses a file, or a path through one, in one line', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'file'), '');
    expect(() => ensureDirectory(join(dir, 'file'))).toThrow(/^cannot create the directory .*file: .*file exists and is not a directory$/);
    expect(() => ensureDirectory(join(dir, 'file/sub'))).toThrow(/^cannot create the directory .*file\/sub: a part of its path is a file, not a directory$/);
  });

  it.skipIf(!existsSync('/proc/self'))('refuses /proc/x in one line instead of spinning', () => {
    expect(() => ensureDirectory('/proc/linkscent-x')).toThrow(new OutputPathError('cannot create the directory /proc/linkscent-x: the file system there makes no directories'));
  });
});
