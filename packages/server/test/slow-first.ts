import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that spend longest waiting (image builds, failovers, restarts of server processes), started first. On
 * a clean clone the test runner has no timings of its own and orders files by size, which left the container
 * image's build (minutes) and the failover test (about a minute and a half of waiting) to start near the end and
 * hold up the whole run. Files that are long because they compute (the bad-input sweep) are not here: started
 * first, beside the type-checks and the package builds, one took 500 s instead of 67. Seconds on a quiet 2-core
 * machine.
 */
const SLOW: Array<[string, number]> = [
  ['test/container/image.test.ts', 230],
  ['test/platform/database-failover.test.ts', 100],
  ['test/webhooks/webhook-crash-recovery.test.ts', 49],
  ['test/platform/process.test.ts', 42],
  ['test/platform/scale-out.test.ts', 42],
  ['test/platform/start-command.test.ts', 34],
  ['test/streams/media-network-process.test.ts', 27],
  ['test/platform/roles.test.ts', 25],
];

const weight = (spec: TestSpecification) => SLOW.find(([file]) => spec.moduleId.endsWith(file))?.[1] ?? 0;

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: among files of no known weight, the runner's own order stays.
    return sorted.map((spec, i) => ({ spec, i })).sort((a, b) => weight(b.spec) - weight(a.spec) || a.i - b.i).map(({ spec }) => spec);
  }
}
