/**
 * The credits page (`GET /credits`): the account's plan and balance (my_account), its ledger
 * (spent per day, week and month in all and per job, as a chart and a table; reserved by calls in
 * flight; the caps), what a run of each job spends, and what the schedules need for the rest of
 * the month: the figures `vir credits` prints, read by its own functions.
 */
import type { FastifyInstance } from 'fastify';
import { readAccount } from '../../api/read-account.js';
import { tighterCaps } from '../../activities/account.js';
import {
  capsText,
  describeJobCredits,
  describeMonthAhead,
  jobsPausedInTemporal,
} from '../../cli/commands/credits.js';
import { serviceClient } from '../../runtime/service.js';
import type { AccountView } from '../../shared/account.js';
import { barChart } from '../chart.js';
import { facts, html, table, type SafeHtml } from '../html.js';
import { loadPortalJobs, portalLedger } from '../jobs-data.js';
import { sendPage, type PortalDeps } from '../deps.js';

/** The account as my_account tells it, or why it could not be asked. */
async function accountOf(
  deps: PortalDeps,
): Promise<{ plan: string | null; balance: number | null } | { error: string }> {
  const settings = deps.ctx.settings();
  if (!settings.visApiKey) return { error: 'VIS_API_KEY is not set' };
  const client = serviceClient(settings);
  try {
    const account = readAccount(await client.call('my_account', {}));
    return { plan: account.plan, balance: account.balance };
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0] ?? 'unknown error' };
  } finally {
    await client.close().catch(() => undefined);
  }
}

function ledgerSection(view: AccountView, settingsCaps: Parameters<typeof tighterCaps>[0]): SafeHtml {
  const { day, week, month } = view.spent;
  const jobs = Object.keys(month.byJob).sort();
  const rows = jobs.map(
    (job) =>
      html`<tr>
        <th scope="row">${job}</th>
        <td class="num">${day.byJob[job] ?? 0}</td>
        <td class="num">${week.byJob[job] ?? 0}</td>
        <td class="num">${month.byJob[job] ?? 0}</td>
      </tr>`,
  );
  return html`${facts(
      [
        ['Spent today (UTC)', html`<span id="spent-day">${day.total}</span>`],
        ['Spent this week', html`<span id="spent-week">${week.total}</span>`],
        ['Spent this month', html`<span id="spent-month">${month.total}</span>`],
        ['Reserved now by calls in flight', html`<span id="reserved">${view.reserved}</span>`],
        ['Caps', html`<span id="caps">${capsText(tighterCaps(settingsCaps, view.caps))}</span>`],
      ],
      'ledger',
    )}
    <h2>Spent per job</h2>
    ${barChart({
      title: 'Credits spent per job today, this week and this month (UTC)',
      series: ['today', 'this week', 'this month'],
      rows: jobs.map((job) => ({
        label: job,
        values: [day.byJob[job] ?? 0, week.byJob[job] ?? 0, month.byJob[job] ?? 0],
      })),
    })}
    ${table(
      'Credits spent per job',
      [
        'Job',
        { text: 'Today', num: true },
        { text: 'This week', num: true },
        { text: 'This month', num: true },
      ],
      rows,
      'no credits spent this month.',
    )}`;
}

/** Registers the credits page. */
export function registerCreditsPage(app: FastifyInstance, deps: PortalDeps): void {
  app.get('/credits', async (_request, reply) => {
    const settings = deps.ctx.settings();
    const jobsRead = deps.jobFiles().then((files) => loadPortalJobs(files));
    // Read together: with Temporal down, the ledger and the pauses wait on one connection attempt.
    const [account, ledger, loaded, paused] = await Promise.all([
      accountOf(deps),
      portalLedger(deps.ctx),
      jobsRead,
      jobsRead.then((l) =>
        jobsPausedInTemporal(
          deps.ctx,
          l.jobs.map((j) => ({ jobId: j.job.id, scheduleId: j.scheduleId })),
        ),
      ),
    ]);
    const balance = 'error' in account ? null : account.balance;
    const accountPart =
      'error' in account
        ? html`<p class="problem">The account cannot be asked (my_account): ${account.error}</p>`
        : facts(
            [
              ['Plan', html`<span id="plan">${account.plan ?? 'not provided by the service'}</span>`],
              ['Balance', html`<span id="balance">${account.balance ?? 'unknown'}</span> credits`],
            ],
            'account',
          );
    let ledgerPart: SafeHtml;
    if ('view' in ledger && ledger.error === null) {
      ledgerPart =
        ledger.view === null
          ? html`<p>No runs recorded yet. Caps: <span id="caps">${capsText(settings.creditCaps)}</span>.</p>`
          : ledgerSection(ledger.view, settings.creditCaps);
    } else {
      ledgerPart = html`<p class="problem">The account's ledger cannot be read: ${ledger.error}</p>`;
    }
    const jobs = loaded.jobs.map((j) => j.job);
    const monthAhead = describeMonthAhead(jobs, new Date(), balance, paused.jobs);
    const body = html`<h2>Account</h2>
      ${accountPart}
      <h2>Ledger</h2>
      ${ledgerPart}
      <h2>What a run of each job spends</h2>
      ${
        jobs.length > 0
          ? html`<ul class="lines" id="per-job">
              ${jobs.map((job) => html`<li>${describeJobCredits(job, balance)}</li>`)}
            </ul>`
          : html`<p class="empty">No jobs.</p>`
      }
      <h2>What the schedules need this month</h2>
      <p id="month-ahead">${monthAhead[0] ?? ''}</p>
      ${
        monthAhead.length > 1
          ? html`<ul class="lines">
              ${monthAhead.slice(1).map((line) => html`<li>${line.trim()}</li>`)}
            </ul>`
          : ''
      }
      ${
        paused.error === null
          ? ''
          : html`<p class="problem">
              Schedules paused in Temporal are not known (${paused.error}): only the job files' pauses are
              counted.
            </p>`
      }`;
    return sendPage(reply, { title: 'Credits', active: 'credits', body });
  });
}
