/**
 * A worker killed (SIGKILL) while a paid call is in flight at the service, after the service
 * charged for it: the run learns it within the activity's heartbeat timeout, reads the balance
 * again, counts the charge, and does not ask again beyond its budget; with room in the budget it
 * asks again and its report is the one of a run without faults. Workers run as separate OS
 * processes (`vir worker`); the account's balance in the sandbox's books is the witness.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { followRun, startJobRun } from '../../cli/run-job.js';
import { parseMarketReportJob, type MarketReportJob } from '../../jobs/market-report/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { QUIET } from '../helpers/runner.js';
import { attemptsSeen, manifestAttempts } from '../helpers/attempts.js';
import { maskClock, reportDigest } from '../helpers/report-digest.js';
import { killGroup, workerTestBed, type WorkerTestBed } from '../helpers/worker-process.js';

const KEY = 'vis_live_sandbox_vc';

let sandbox: RunningSandbox;
let bed: WorkerTestBed;
/**
 * The worker the first test started after its kill, left running for the second test's runs (a
 * worker process takes ~5 s to start on a loaded machine); the bed stops it at the end.
 */
let left: ChildProcess | undefined;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimitPerMinute: 10_000 });
  bed = await workerTestBed({
    name: 'kill',
    serviceUrl: sandbox.url,
    key: KEY,
    temporalAddress: inject('temporalAddress'),
  });
});

afterAll(async () => {
  await bed?.close(0);
  await sandbox?.close();
});

function balance(): number {
  return sandbox.state.accounts.get(sandbox.state.keys.get(KEY)!.account_id)!.credits;
}
const askResults = () => [...sandbox.state.results.values()].filter((r) => r.operation === 'ask').length;

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts a run of `job` whose first ask is charged and saved by the service, then never answered
 * (the call stays in flight), kills `worker` (SIGKILL) once the account paid for it, and starts
 * another worker. Gives the balance and the request log's length from before the run.
 */
async function killedWithChargedAskInFlight(worker: ChildProcess, job: MarketReportJob) {
  sandbox.setFaults({ afterCharge: { hangRate: 1, operations: ['ask'], times: 1 } });
  const before = balance();
  const asked = askResults();
  const from = sandbox.requestLog().length;
  const handle = await startJobRun(bed.client, bed.settings, job);
  await until('the charged ask in flight', () => askResults() > asked, 90_000);
  expect(balance()).toBe(before - 1);
  killGroup(worker, 'SIGKILL');
  await new Promise((r) => worker.once('exit', r));
  const second = await bed.startWorker();
  return { handle, before, from, second };
}

/** A report of Germany with two data-agent questions and no enrichment; the test sets the rest. */
function twoQuestionJob(over: Record<string, unknown>): MarketReportJob {
  return parseMarketReportJob({
    countries: ['Germany'],
    top: { investors: 3, startups: 3 },
    paging: { maxInvestorsPerCountry: 100, maxStartupsPerCountry: 100 },
    enrich: { investors: 0, startups: 0 },
    questions: ['which countries raised the most in 2025', 'median series A size in Germany'],
    destination: join(bed.dir, 'reports'),
    ...over,
  });
}

test('a worker killed with a charged paid call in flight: the run counts the charge and stays in budget', async () => {
  const job = twoQuestionJob({
    id: 'paid-kill',
    title: 'Paid call in flight when the worker dies',
    budget: { credits: 2 },
    outputs: ['xlsx'],
  });
  const { handle, before, from, second } = await killedWithChargedAskInFlight(await bed.startWorker(), job);
  try {
    const started = Date.now();
    const result = await followRun(handle, QUIET);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
      credits: { charged: number };
      reasons: string[];
    };
    const paid = before - balance();
    // The account paid what the manifest says, and no more than the budget.
    expect(manifest.credits.charged).toBe(paid);
    expect(paid).toBeLessThanOrEqual(2);
    expect(paid).toBe(2);
    expect(manifest.reasons.join('\n')).toMatch(
      /charged 1 credit for an answer that was lost; not asked again/,
    );
    // Every request the service saw is counted, the killed worker's charged ask included.
    expect(manifestAttempts(manifest)).toEqual(attemptsSeen(sandbox.requestLog().slice(from)));
    expect(manifestAttempts(manifest).ask).toEqual({ attempted: 2, succeeded: 1, failed: 1 });
    // Learnt within the heartbeat timeout, not the call's 150 s timeout.
    expect(Date.now() - started).toBeLessThan(90_000);
  } finally {
    sandbox.setFaults({});
    left = second;
  }
}, 240_000);

test('with room in the budget, the run asks the lost question again and its report is the one of a run without faults', async () => {
  const job = (id: string) =>
    twoQuestionJob({
      id,
      title: 'Paid call in flight when the worker dies, asked again',
      budget: { credits: 3 },
      outputs: ['pdf', 'xlsx'],
    });
  const digestOf = async (id: string, result: Awaited<ReturnType<typeof followRun>>, started: number) => {
    const d = await reportDigest(result.files, {
      workflowId: result.workflowId,
      runDate: new Date(started).toISOString().slice(0, 10),
    });
    const unId = (lines: string[]) => lines.map((l) => maskClock(l.replaceAll(id, '<job>')));
    return { pdf: unId(d.pdf), workbook: unId(d.workbook) };
  };
  /**
   * The report without its account of the run itself (calls made, credits spent, the balance
   * left, the operations table's ask row, what the ask answers cost in the Sources): the faulted
   * run rightly made one more balance check and paid for the lost answer too.
   */
  const RUN_STATS = [
    /^\d+ \d+ of \d+ <duration> /,
    /^my_account \d+ /,
    /^ask \d+ \d+$/,
    /^ask \d+ \d+ \d+ S\d/,
    /^Total \d+ \d+$/,
    /credits left after the run/,
    /^(API calls made|Credits spent|Account balance after)\b/,
  ];
  /** Workbook cells `Sheet!B5 value` on a row whose label (column A) is one of the run's own figures. */
  const statsRows = (lines: string[]) =>
    new Set(
      lines
        .map((l) => /^([^!]+)!A(\d+) string:(.*)$/.exec(l))
        .filter(
          (m): m is RegExpExecArray =>
            m !== null && /calls made|credits|my_account|balance|^ask$/i.test(m[3]!),
        )
        .map((m) => `${m[1]}!${m[2]}`),
    );
  /** The Sources sheet's Credits cells (`Sources!E<row> number:<n>`), by the row's operation. */
  const sourceCredits = (lines: string[]) => {
    const operation = new Map<string, string>();
    for (const l of lines) {
      const m = /^Sources!B(\d+) string:(.*)$/.exec(l);
      if (m) operation.set(m[1]!, m[2]!);
    }
    return lines.flatMap((l) => {
      const m = /^Sources!E(\d+) number:(\d+)$/.exec(l);
      return m ? [{ line: l, operation: operation.get(m[1]!) ?? '', credits: Number(m[2]) }] : [];
    });
  };
  const content = (lines: string[]) => {
    const rows = statsRows(lines);
    const askCredits = new Set(
      sourceCredits(lines)
        .filter((c) => c.operation === 'ask')
        .map((c) => c.line),
    );
    return lines.filter((l) => {
      if (RUN_STATS.some((re) => re.test(l)) || askCredits.has(l)) return false;
      const cell = /^([^!]+)!([A-Z]+)(\d+) /.exec(l);
      return !(cell && cell[2] !== 'A' && rows.has(`${cell[1]}!${cell[3]}`));
    });
  };
  // The one worker of the queue (the kill must hit the worker running the ask): the first
  // test's, or a new one when it is gone.
  const worker = left && left.exitCode === null && left.signalCode === null ? left : await bed.startWorker();
  let plainStarted = Date.now();
  const plain = await followRun(await startJobRun(bed.client, bed.settings, job('paid-plain')), QUIET);
  const plainSeconds = (Date.now() - plainStarted) / 1000;
  const plainDigest = await digestOf('paid-plain', plain, plainStarted);
  expect(plain.partial).toBe(false);

  plainStarted = Date.now();
  const { handle, before, from, second } = await killedWithChargedAskInFlight(worker, job('paid-again'));
  try {
    const result = await followRun(handle, QUIET);
    const seconds = (Date.now() - plainStarted) / 1000;
    console.log(`paid call killed in flight: ${seconds.toFixed(1)} s against ${plainSeconds.toFixed(1)} s`);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as {
      credits: { charged: number };
    };
    // Charged for the lost answer and for asking again: what the account paid, within the budget.
    expect(before - balance()).toBe(manifest.credits.charged);
    expect(manifest.credits.charged).toBe(3);
    expect(result.partial, result.reasons.join('; ')).toBe(false);
    expect(manifestAttempts(manifest)).toEqual(attemptsSeen(sandbox.requestLog().slice(from)));
    expect(manifestAttempts(manifest).ask).toEqual({ attempted: 3, succeeded: 2, failed: 1 });
    // The same report as the run without faults, seconds later (the heartbeat timeout).
    const digest = await digestOf('paid-again', result, plainStarted);
    expect(content(digest.pdf)).toEqual(content(plainDigest.pdf));
    expect(content(digest.workbook)).toEqual(content(plainDigest.workbook));
    // What differs is the run's own account: one more credit, one more balance check.
    expect(digest.pdf.filter((l) => !content(digest.pdf).includes(l)).length).toBeLessThanOrEqual(6);
    // The operations table's ask row counts the lost answer's charge: what the account paid.
    // (On the Run statistics sheet: the run's own figures are out of the partner's pages.)
    const ask = digest.workbook.map((l) => /^([^!]+)!A(\d+) string:ask$/.exec(l)).find((m) => m !== null);
    expect(ask, 'the operations table has an ask row').toBeDefined();
    expect(digest.workbook).toContain(`${ask![1]}!C${ask![2]} number:${before - balance()}`);
    // The Sources say what each answer cost the account, the lost attempt's charge on the answer
    // asked again: they add up to the balance's fall (the plain run's to its 2 asks).
    const sum = (lines: string[]) => sourceCredits(lines).reduce((t, c) => t + c.credits, 0);
    expect(sum(digest.workbook)).toBe(before - balance());
    expect(sum(plainDigest.workbook)).toBe(2);
    expect(digest.pdf).toContainEqual(
      expect.stringMatching(new RegExp(`^ask 2 \\d+ ${before - balance()} S`)),
    );
    expect(seconds - plainSeconds).toBeLessThan(40);
  } finally {
    sandbox.setFaults({});
    killGroup(second, 'SIGTERM');
    await new Promise((r) => (second.exitCode !== null ? r(null) : second.once('exit', r)));
  }
}, 300_000);
