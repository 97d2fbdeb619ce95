/**
 * Runs inside the baseline's worktree (bench/baseline.ts copies it there with events.ts): the
 * market report's events and the smoke runs' overheads of that tree's code, printed as one
 * `BASELINE <json>` line. Only modules the baseline has are imported.
 */
import { measureEvents } from './events.js';

const address = process.argv[2];
if (!address) throw new Error('usage: baseline-runner.ts <temporal address>');
// The baseline's own module (bench/cluster.ts there held the overhead measurement), named at run
// time: this tree's type check does not resolve it.
const clusterModule = './cluster.js';
const { measureOverhead } = (await import(clusterModule)) as {
  measureOverhead: (address: string) => Promise<{ total: number[] }>;
};
const events = await measureEvents(address, 'before');
const overhead = (await measureOverhead(address)).total;
console.log(`BASELINE ${JSON.stringify({ events, overhead })}`);
