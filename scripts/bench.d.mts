/** Types of scripts/bench.mjs's exports, for test/bench/runner.test.ts. */
export interface BenchFile {
  /** `pipeline` for bench/pipeline-bench.ts. */
  name: string;
  /** Absolute path. */
  file: string;
}

export interface BenchArgs {
  names: string[];
  skipFetch: boolean;
  list: boolean;
  help: boolean;
}

export const BENCH_DIR: string;
export const RESULTS_DIR: string;
export const BENCH_ORDER: readonly string[];
export function discoverBenches(dir?: string): BenchFile[];
export function parseBenchArgs(argv: readonly string[]): BenchArgs;
export function selectBenches(benches: readonly BenchFile[], names: readonly string[]): BenchFile[];
export function needsCorpus(source: string): boolean;
export function stamp(date?: Date): string;
