import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = resolve(import.meta.dirname, '../../../companion/platform/wasm-tiers.ts');

/**
 * A child (`--allow-natives-syntax`, to ask V8 which tier runs a function) that, with `baseline`,
 * calls `keepWasmOnBaseline` first, then compiles a small module and calls its function until V8
 * has tiered it up to TurboFan or 40 rounds of 200,000 calls have passed, and prints the tier.
 * V8 tiers up hot functions on background threads: each round waits 50 ms for them.
 */
const HOT = `
  if (process.argv.includes('baseline')) (await import(${JSON.stringify(MODULE)})).keepWasmOnBaseline();
  // (module (func (export "f") (param i32) (result i32) local.get 0 i32.const 1 i32.add))
  const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,5,1,1,102,0,0,10,9,1,7,0,32,0,65,1,106,11]);
  const { f } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
  let x = 0;
  for (let round = 0; round < 40 && !%IsTurboFanFunction(f); round++) {
    for (let i = 0; i < 200_000; i++) x = f(x);
    await new Promise((done) => setTimeout(done, 50));
  }
  console.log(JSON.stringify({ liftoff: %IsLiftoffFunction(f), turbofan: %IsTurboFanFunction(f), calls: x }));
`;

function hot(...args: string[]): { liftoff: boolean; turbofan: boolean } {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', HOT, '--', ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { liftoff: boolean; turbofan: boolean };
}

describe('keepWasmOnBaseline', () => {
  it('keeps a hot WebAssembly function on Liftoff, which V8 alone recompiles with TurboFan', () => {
    expect(hot()).toMatchObject({ liftoff: false, turbofan: true });
    // The flag's name is V8's: were it renamed, setFlagsFromString would ignore it silently.
    expect(hot('baseline')).toMatchObject({ liftoff: true, turbofan: false });
  }, 60_000);
});
